/**
 * The station form (spec 000 section 2): `/admin/devices/station/create` and
 * `/admin/devices/station/{id}`. It works without JavaScript: the SSR and unit editor's add
 * and remove buttons post the form with `action` and the page comes back with the change;
 * the StationEditor island does the same in place. Validation is the device schemas of
 * `core/device_rules.ts`.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { type Form, formRows, formString as str, readForm } from "./_http.ts";
import { requireRole } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import type { FieldErrors } from "../core/schemas.ts";
import { type DeviceView, stationTopicPrefix } from "../core/devices.ts";
import {
  LOCATION_FIELDS,
  locationJson,
  parseLocation,
  stationBodySchema,
  type StationLocation,
} from "../core/device_rules.ts";
import { createStation, updateStation } from "../services/devices/mod.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { zoneChoices } from "../services/zones.ts";
import type { Translate } from "../services/platform/i18n.ts";
import {
  emptyStationValues,
  StationForm,
  type StationFormValues,
} from "../components/devices/StationForm.tsx";
import {
  addSsr,
  addUnit,
  type EditorSsr,
  type EditorUnit,
  removeSsr,
  removeUnit,
} from "../core/station_editor.ts";
import { dataUrl, DEVICE_RULES, loadStation, stationNotFound, tr, translate } from "./_devices.tsx";
import { formChecked } from "./_validate.ts";

/** The form values of a stored station. */
function stationValues(s: DeviceView): StationFormValues {
  const loc = parseLocation(s.location);
  return {
    ...emptyStationValues(),
    ...loc,
    name: s.name,
    serial_number: s.serial_number,
    station_id: s.station_id,
    mqtt_username: s.config.mqtt?.username ?? "",
    zone_id: s.zone_id === null ? "" : String(s.zone_id),
    ssrs: (s.config.station?.ssrs ?? []).map((x) => ({ ...x })),
    units: (s.config.station?.units ?? []).map((u) => ({
      id: u.id,
      name: u.name,
      ssr_id: u.ssr_id,
    })),
  };
}

/** The form values as posted (rows in document order). */
function postedStation(form: Form): StationFormValues {
  const posted = formRows(form, "ssr", ["id", "name", "type", "gpio"], 100);
  const ssrs: EditorSsr[] = posted.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type === "emergency" ? "emergency" : "normal",
    gpio_pin: /^\d{1,3}$/.test(r.gpio) ? Number(r.gpio) : NaN,
  }));
  const units: EditorUnit[] = formRows(form, "unit", ["id", "name", "ssr"], 500).map((r) => ({
    id: r.id,
    name: r.name,
    ssr_id: r.ssr,
  }));
  const v = emptyStationValues();
  for (const k of Object.keys(v) as (keyof StationFormValues)[]) {
    if (k !== "ssrs" && k !== "units") v[k] = str(form, k);
  }
  return { ...v, ssrs, units };
}

/** The JSON body of spec 000 section 7 from the form values. */
function stationBody(v: StationFormValues) {
  const location = Object.fromEntries(
    LOCATION_FIELDS.map((k) => [k, v[k]]),
  ) as StationLocation;
  return {
    name: v.name,
    location: locationJson(parseLocation(location)),
    serial_number: v.serial_number,
    station_id: v.station_id,
    zone_id: v.zone_id === "" ? null : /^\d{1,15}$/.test(v.zone_id) ? Number(v.zone_id) : v.zone_id,
    type: "station",
    config: {
      mqtt: {
        username: v.mqtt_username,
        password: v.mqtt_password,
        topic_prefix: stationTopicPrefix(v.serial_number.trim()),
      },
      station: {
        ssrs: v.ssrs.map((s) => ({ ...s, gpio_pin: Number.isNaN(s.gpio_pin) ? -1 : s.gpio_pin })),
        units: v.units,
      },
    },
  };
}

/**
 * Applies a no-JavaScript editor action (`add_ssr`, `add_unit`, `remove_ssr:<id>`,
 * `remove_unit:<id>`); answers the new values and the refusal (a locale key), if any.
 */
function applyAction(
  t: Translate,
  v: StationFormValues,
  action: string,
): { values: StationFormValues; errors: FieldErrors } | null {
  const ssrName = (n: number) => t("devices.station_form.placeholders.ssr_name", { n });
  const unitName = (n: number) => t("devices.station_form.placeholders.unit_name", { n });
  const refusal = {
    maxSsrs: "devices.station_form.validation.max_ssrs",
    maxGpio: "devices.station_form.validation.max_gpio",
    ssrInUse: "devices.station_form.validation.cannot_remove_ssr",
    noSsrs: "devices.station_form.validation.add_ssrs_first",
  } as const;
  const ssrs = v.ssrs.map((s) => ({ ...s, gpio_pin: Number.isNaN(s.gpio_pin) ? 0 : s.gpio_pin }));
  v = { ...v, ssrs };
  if (action === "add_ssr") {
    const res = addSsr(ssrs, ssrName);
    return res.ok
      ? { values: { ...v, ssrs: res.rows }, errors: {} }
      : { values: v, errors: { ssrs: refusal[res.reason] } };
  }
  if (action === "add_unit") {
    const res = addUnit(v.ssrs, v.units, unitName);
    return res.ok
      ? { values: { ...v, units: res.rows }, errors: {} }
      : { values: v, errors: { units: refusal[res.reason] } };
  }
  if (action.startsWith("remove_ssr:")) {
    const res = removeSsr(v.ssrs, v.units, action.slice("remove_ssr:".length));
    return res.ok
      ? { values: { ...v, ssrs: res.rows }, errors: {} }
      : { values: v, errors: { ssrs: refusal[res.reason] } };
  }
  if (action.startsWith("remove_unit:")) {
    return { values: { ...v, units: removeUnit(v.units, action.slice(12)) }, errors: {} };
  }
  return null;
}

/** The station form's pages, mounted at `/admin/devices/station`. */
export function adminStationFormRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  const renderStationForm = async <E extends UserEnv>(
    c: Context<E>,
    id: number | null,
    values: StationFormValues,
    fieldErrors: FieldErrors = {},
    error?: string,
    status: 200 | 400 = 200,
  ) => {
    const t = c.var.t;
    const title = t(`devices.station_form.${id === null ? "title_create" : "title_edit"}`);
    let zones: { id: number; name: string }[] | null;
    try {
      zones = await zoneChoices(deps);
    } catch (e) {
      deps.log.log("error", "zones failed to load", { error: String(e) });
      zones = null;
    }
    return renderPage(
      c,
      deps,
      title,
      StationForm,
      { id, values, fieldErrors, error, zones },
      status,
    );
  };

  app.get("/create", (c) => {
    const first = addSsr([], (n) => c.var.t("devices.station_form.placeholders.ssr_name", { n }));
    return renderStationForm(c, null, {
      ...emptyStationValues(),
      ssrs: first.ok ? first.rows : [],
    });
  });

  const postStation = async <E extends UserEnv>(c: Context<E>, id: number | null) => {
    const t = c.var.t;
    const form = await readForm(c);
    const values = postedStation(form);
    const action = str(form, "action");
    if (action) {
      const res = applyAction(t, values, action);
      if (res) return renderStationForm(c, id, res.values, translate(c, res.errors));
    }
    const shown = { ...values, mqtt_password: "" };
    const failed = t(`devices.station_form.errors.${id === null ? "create" : "update"}_failed`);
    const parsed = formChecked(
      stationBodySchema(id === null ? "create" : "update"),
      stationBody(values),
      DEVICE_RULES,
    );
    if (parsed instanceof Refusal) {
      return renderStationForm(c, id, shown, translate(c, parsed.fields), failed, 400);
    }
    let res: DeviceView | Refusal;
    try {
      res = await attempt(
        id === null
          ? createStation(acting(c, deps), c.var.user, parsed)
          : updateStation(acting(c, deps), c.var.user, id, parsed),
      );
    } catch (e) {
      deps.log.log("error", "station save failed", { id, error: String(e) });
      return renderStationForm(c, id, shown, {}, failed, 400);
    }
    if (res instanceof Refusal) {
      if (res.kind === "not_found") return stationNotFound(c, deps);
      const named = Object.keys(res.fields).length > 0;
      const errors = named ? translate(c, res.fields) : {};
      const detail = named ? "" : `: ${tr(c, res.key)}`;
      return renderStationForm(c, id, shown, errors, `${failed}${detail}`, 400);
    }
    return c.redirect(dataUrl(res.id, { done: id === null ? "created" : "updated" }), 303);
  };
  app.post("/create", (c) => postStation(c, null));

  app.get(
    "/:id",
    loadStation(deps, { pageOnError: true }),
    (c) => renderStationForm(c, c.var.station.id, stationValues(c.var.station)),
  );
  app.post("/:id", loadStation(deps), (c) => postStation(c, c.var.station.id));

  return app;
}
