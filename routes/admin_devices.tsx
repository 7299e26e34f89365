/**
 * Admin pages for stations and sensors (spec 000 section 2): the station list
 * (`/admin/devices?q=`), the station form (`/admin/devices/station/create`, `/{id}`), the
 * station data page (`/{id}/data`) with station and sensor deletes, the sensor form
 * (`/{id}/sensor/create`, `/{id}/sensor/{sensorId}`), a simple sensor detail page
 * (`/{id}/sensor/{sensorId}/data`).
 *
 * Every form works without JavaScript: the SSR and unit editor's add and remove buttons
 * post the form with `action` and the page comes back with the change; the StationEditor
 * island does the same in place. Data comes from `services/devices/`, validation from
 * the device schemas of `core/device_rules.ts`. The /admin guard is `routes/admin.tsx`'s.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { idParam, readForm } from "./_http.ts";
import { appPage } from "./_page.tsx";
import type { FieldErrors } from "../core/schemas.ts";
import { type DeviceView, sensorTopicPrefix, stationTopicPrefix } from "../core/devices.ts";
import {
  DEVICE_MESSAGE_PARAMS,
  LOCATION_FIELDS,
  locationJson,
  parseLocation,
  sensorBodySchema,
  stationBodySchema,
  type StationLocation,
  validateDeviceBody,
} from "../core/device_rules.ts";
import { timeAgo } from "../core/time_ago.ts";
import { localParts } from "../core/local_time.ts";
import { monthlyUptime, realtime } from "../services/measurements.ts";
import { isMonth, localDateTime, shiftMonth } from "../components/devices/sensor/format.ts";
import {
  createSensor,
  createStation,
  deleteSensor,
  deleteStation,
  type DeviceChange,
  getDeviceView,
  getSensorView,
  listDeviceViews,
  listSensorViews,
  updateSensor,
  updateStation,
} from "../services/devices/mod.ts";
import { findUsers } from "../services/accounts.ts";
import type { Translate } from "../services/platform/i18n.ts";
import { StationList, type StationRow } from "../components/devices/StationList.tsx";
import {
  emptyStationValues,
  StationForm,
  type StationFormValues,
} from "../components/devices/StationForm.tsx";
import {
  type SensorRow,
  StationData,
  StationLoadError,
  StationNotFound,
} from "../components/devices/StationData.tsx";
import {
  SensorForm,
  type SensorFormValues,
  type UnitChoice,
} from "../components/devices/SensorForm.tsx";
import { SensorDetail, SensorNotFound } from "../components/devices/SensorDetail.tsx";
import { testAndReturn, testConnectionSlot } from "./_mqtt_test_page.tsx";
import { certificateView, renewAndReturn, verifyAndReturn } from "./_certificate_page.tsx";
import { ConfirmPage } from "../components/users/ConfirmPage.tsx";
import { zoneChoices } from "../services/zones.ts";
import {
  addSsr,
  addUnit,
  type EditorSsr,
  type EditorUnit,
  removeSsr,
  removeUnit,
} from "../islands/StationEditor.tsx";

type Form = Record<string, string | string[]>;
type Ctx = Context<AppEnv>;

/** A single form value as a string ("" when missing or repeated). */
const str = (form: Form, k: string) => (typeof form[k] === "string" ? form[k] as string : "");
/** A form value as a list (rows of the SSR and unit editor). */
const list = (form: Form, k: string): string[] => {
  const v = form[k];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** Translates a device message (some take `{{max}}` or `{{pin}}`). */
const tr = (c: Ctx, key: string) => c.var.t(key, DEVICE_MESSAGE_PARAMS);
const translate = (c: Ctx, errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, tr(c, v)]));

/** The search box's text, trimmed and bounded. */
const cleanSearch = (q: string | undefined) => (q ?? "").trim().slice(0, 200);

/** Where a station's pages are. */
const stationUrl = (id: number) => `/admin/devices/station/${id}`;
const dataUrl = (id: number, params: Record<string, string> = {}) => {
  const qs = new URLSearchParams(params).toString();
  return `${stationUrl(id)}/data${qs ? `?${qs}` : ""}`;
};

/** A location's city for the list, or the spec's fallback. */
export function cityText(t: Translate, location: string): string {
  const loc = parseLocation(location);
  if (LOCATION_FIELDS.every((k) => loc[k] === "")) return t("devices.location.no_location");
  return loc.city || t("devices.location.no_city");
}

/** A location worded on one line, or 'No location'. */
export function locationText(t: Translate, location: string): string {
  const loc = parseLocation(location);
  const street = [loc.street, loc.street_number].filter(Boolean).join(" ");
  const parts = [street, loc.colony, loc.city || t("devices.location.no_city"), loc.state]
    .concat(loc.postal_code ? [loc.postal_code] : [], loc.country ? [loc.country] : [])
    .filter(Boolean);
  if (LOCATION_FIELDS.every((k) => loc[k] === "")) return t("devices.location.no_location");
  return parts.join(", ");
}

/** The broker as meters reach it: the external broker's host and port, or this host and the embedded broker's port. */
function brokerAddress(deps: Deps, hostHeader: string | undefined): string {
  const url = deps.config.mqtt.url;
  if (url) {
    try {
      const u = new URL(url);
      const tls = u.protocol === "mqtts:" || u.protocol === "tls:";
      return `${u.hostname}:${u.port || (tls ? 8883 : 1883)}`;
    } catch {
      // fall through to the embedded broker
    }
  }
  const host = (hostHeader ?? "localhost").replace(/:\d+$/, "");
  return `${host}:${deps.config.mqtt.port}`;
}

/** "5 min ago", "Never seen"... */
function lastSeenText(t: Translate, lastSeen: number | null, now: number): string {
  if (lastSeen === null) return t("devices.station_data.cards.never_seen");
  const a = timeAgo(lastSeen, now);
  const time = a.unit === "just_now"
    ? t("devices.time_ago.just_now")
    : t(`devices.time_ago.${a.unit}`, { n: a.n });
  return t("devices.station_data.cards.last_seen", { time });
}

/** The unit (with its tenant) a sensor measures, worded as the spec's fallbacks say. */
function assignmentText(t: Translate, station: DeviceView, sensor: DeviceView): string {
  const unitId = sensor.config.sensor?.unit_id ?? null;
  if (!unitId) return t("devices.location.not_assigned");
  const unit = station.config.station?.units.find((u) => u.id === unitId);
  const unitName = unit?.name ?? t("devices.location.unknown_unit");
  const tenant = sensor.tenant_id === null
    ? t("devices.location.no_tenant")
    : sensor.tenant?.full_name ?? t("devices.location.unknown_tenant");
  return t("devices.station_data.sensors.unit_with_tenant", { unit: unitName, tenant });
}

// ---- the station form's values ---------------------------------------------------------------

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
  const ids = list(form, "ssr_id");
  const names = list(form, "ssr_name");
  const types = list(form, "ssr_type");
  const pins = list(form, "ssr_gpio");
  const ssrs: EditorSsr[] = ids.slice(0, 100).map((id, i) => ({
    id,
    name: names[i] ?? "",
    type: types[i] === "emergency" ? "emergency" : "normal",
    gpio_pin: /^\d{1,3}$/.test(pins[i] ?? "") ? Number(pins[i]) : NaN,
  }));
  const unitIds = list(form, "unit_id");
  const unitNames = list(form, "unit_name");
  const unitSsrs = list(form, "unit_ssr");
  const units: EditorUnit[] = unitIds.slice(0, 500).map((id, i) => ({
    id,
    name: unitNames[i] ?? "",
    ssr_id: unitSsrs[i] ?? "",
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

// ---- the sensor form's values ----------------------------------------------------------------

function sensorValues(s: DeviceView): SensorFormValues {
  return {
    name: s.name,
    serial_number: s.serial_number,
    unit_id: s.config.sensor?.unit_id ?? "",
    tenant_id: s.tenant_id === null ? "" : String(s.tenant_id),
    ip_address: s.config.sensor?.ip_address ?? "",
    mqtt_username: s.config.mqtt?.username ?? "",
  };
}

function postedSensor(form: Form): SensorFormValues {
  return {
    name: str(form, "name"),
    serial_number: str(form, "serial_number"),
    unit_id: str(form, "unit_id"),
    tenant_id: str(form, "tenant_id"),
    ip_address: str(form, "ip_address"),
    mqtt_username: str(form, "mqtt_username"),
  };
}

function sensorBody(v: SensorFormValues, password: string) {
  return {
    name: v.name,
    serial_number: v.serial_number,
    type: "sensor",
    config: {
      mqtt: {
        username: v.mqtt_username,
        password,
        topic_prefix: sensorTopicPrefix(v.serial_number.trim()),
      },
      sensor: { unit_id: v.unit_id, tenant_id: v.tenant_id || null, ip_address: v.ip_address },
    },
  };
}

/** A failure carried by a redirect: shown only when it is a known device message. */
function failureText(t: Translate, what: string | undefined, reason: string | undefined) {
  if (!what) return undefined;
  const known = reason && /^(devices|mqtt_test)\./.test(reason) && t(reason) !== reason
    ? t(reason)
    : t("devices.station_data.errors.unexpected");
  if (what === "station_has_sensors") {
    return t("devices.station_data.delete_station_dialog.has_sensors");
  }
  if (what === "delete_station") {
    return t("devices.station_data.errors.delete_station_failed", { message: known });
  }
  if (what === "delete_sensor") {
    return t("devices.station_data.errors.delete_sensor_failed", { message: known });
  }
  return undefined;
}

/** Notices after a change on the station data page and the list. */
const NOTICES: Record<string, string> = {
  created: "devices.station_form.success_create",
  updated: "devices.station_form.success_update",
  sensor_created: "devices.sensor_form.success_create",
  sensor_updated: "devices.sensor_form.success_update",
  sensor_deleted: "devices.station_data.sensor_deleted",
  station_deleted: "devices.devices_page.station_deleted",
};
const noticeText = (t: Translate, done: string | undefined) =>
  done && NOTICES[done] ? t(NOTICES[done]) : undefined;

/** Routes under /admin/devices. */
export function adminDeviceRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  /** 'Station Not Found' (404). */
  const stationNotFound = (c: Ctx) =>
    appPage(
      c,
      deps,
      c.var.t("devices.sensor_form.station_not_found_title"),
      <StationNotFound t={c.var.t} />,
      404,
    );

  /** 'Error Loading Station' with Go Back and Try Again (500). */
  const loadError = (c: Ctx, e: unknown) => {
    deps.log.log("error", "station page failed", { path: c.req.path, error: String(e) });
    const t = c.var.t;
    return appPage(
      c,
      deps,
      t("devices.station_data.errors.loading_title"),
      <StationLoadError
        t={t}
        message={t("devices.station_data.errors.unexpected")}
        retry={c.req.path}
      />,
      500,
    );
  };

  /** The station `id` as the admin sees it, or null when it is not a station. */
  const station = async (c: Ctx, id: number | null) => {
    if (id === null) return null;
    const view = await getDeviceView(deps, c.var.user!, id);
    return view?.type === "station" ? view : null;
  };

  // ---- the list ------------------------------------------------------------------------------

  app.get("/admin/devices", async (c) => {
    const t = c.var.t;
    const q = cleanSearch(c.req.query("q"));
    let rows: StationRow[] | null;
    try {
      const needle = q.toLowerCase();
      rows = (await listDeviceViews(deps, c.var.user!, { type: "station" }))
        .map((s) => ({
          id: s.id,
          name: s.name,
          city: cityText(t, s.location),
          serial_number: s.serial_number,
          customer: s.customer?.full_name ?? null,
          units: s.config.station?.units.length ?? 0,
          payment_status: s.payment_status,
          status: s.status,
          station_id: s.station_id,
        }))
        .filter((s) =>
          !needle ||
          [s.name, s.city, s.serial_number, s.customer ?? "", s.station_id]
            .some((x) => x.toLowerCase().includes(needle))
        );
    } catch (e) {
      deps.log.log("error", "station list failed", { error: String(e) });
      rows = null;
    }
    return appPage(
      c,
      deps,
      t("devices.devices_page.title"),
      <StationList t={t} q={q} stations={rows} notice={noticeText(t, c.req.query("done"))} />,
    );
  });

  // ---- the station form ----------------------------------------------------------------------

  const renderStationForm = async (
    c: Ctx,
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
    return appPage(
      c,
      deps,
      title,
      <StationForm
        t={t}
        id={id}
        values={values}
        fieldErrors={fieldErrors}
        error={error}
        zones={zones}
      />,
      status,
    );
  };

  app.get("/admin/devices/station/create", (c) => {
    const first = addSsr([], (n) => c.var.t("devices.station_form.placeholders.ssr_name", { n }));
    return renderStationForm(c, null, {
      ...emptyStationValues(),
      ssrs: first.ok ? first.rows : [],
    });
  });

  const postStation = async (c: Ctx) => {
    const rawId = c.req.param("id");
    const id = rawId === undefined ? null : idParam(rawId);
    if (rawId !== undefined && (id === null || !(await station(c, id)))) {
      return stationNotFound(c);
    }
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
    const parsed = validateDeviceBody(
      stationBodySchema(id === null ? "create" : "update"),
      stationBody(values),
    );
    if (!parsed.ok) {
      return renderStationForm(c, id, shown, translate(c, parsed.errors), failed, 400);
    }
    let res: DeviceChange;
    try {
      res = id === null
        ? await createStation(deps, c.var.user!, parsed.data)
        : await updateStation(deps, c.var.user!, id, parsed.data);
    } catch (e) {
      deps.log.log("error", "station save failed", { id, error: String(e) });
      return renderStationForm(c, id, shown, {}, failed, 400);
    }
    if (!res.ok) {
      if (res.status === 404) return stationNotFound(c);
      const errors = res.errors ? translate(c, res.errors) : {};
      const detail = res.errors ? "" : `: ${tr(c, res.key)}`;
      return renderStationForm(c, id, shown, errors, `${failed}${detail}`, 400);
    }
    return c.redirect(dataUrl(res.device.id, { done: id === null ? "created" : "updated" }), 303);
  };
  app.post("/admin/devices/station/create", postStation);

  app.get("/admin/devices/station/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    let s: DeviceView | null;
    try {
      s = await station(c, id);
    } catch (e) {
      return loadError(c, e);
    }
    if (!s) return stationNotFound(c);
    return renderStationForm(c, s.id, stationValues(s));
  });
  app.post("/admin/devices/station/:id", postStation);

  // ---- the station data page -----------------------------------------------------------------

  app.get("/admin/devices/station/:id/data", async (c) => {
    const t = c.var.t;
    const id = idParam(c.req.param("id"));
    let s: DeviceView | null;
    let sensors: DeviceView[];
    try {
      s = await station(c, id);
      if (!s) return stationNotFound(c);
      sensors = (await listSensorViews(deps, c.var.user!, s.id)) ?? [];
    } catch (e) {
      return loadError(c, e);
    }
    const units = s.config.station?.units ?? [];
    const rows: SensorRow[] = sensors.map((x) => ({
      id: x.id,
      name: x.name,
      status: x.status,
      serial_number: x.serial_number,
      assignment: assignmentText(t, s, x),
    }));
    const bound = new Set(sensors.map((x) => x.config.sensor?.unit_id).filter(Boolean));
    return appPage(
      c,
      deps,
      s.name,
      <StationData
        t={t}
        station={{
          id: s.id,
          name: s.name,
          serial_number: s.serial_number,
          station_id: s.station_id,
          location: locationText(t, s.location),
          zone: s.zone?.name ?? null,
          status: s.status,
          last_seen: s.last_seen,
          customer: s.customer?.full_name ?? null,
          units: units.length,
          unitsWithSensor: units.filter((u) => bound.has(u.id)).length,
          sensors: rows,
        }}
        lastSeen={lastSeenText(t, s.last_seen, deps.now())}
        notice={noticeText(t, c.req.query("done"))}
        failure={failureText(t, c.req.query("error"), c.req.query("reason"))}
      />,
    );
  });

  app.post("/admin/devices/station/:id/delete", async (c) => {
    const t = c.var.t;
    const id = idParam(c.req.param("id"));
    const s = await station(c, id);
    if (!s) return stationNotFound(c);
    const form = await readForm(c);
    const sensors = (await listSensorViews(deps, c.var.user!, s.id)) ?? [];
    if (sensors.length > 0) {
      return c.redirect(dataUrl(s.id, { error: "station_has_sensors" }), 303);
    }
    if (str(form, "confirm") !== "yes") {
      return appPage(
        c,
        deps,
        t("devices.station_data.delete_station_dialog.title"),
        <ConfirmPage
          t={t}
          title={t("devices.station_data.delete_station_dialog.title")}
          message={t("devices.station_data.delete_station_dialog.message", { name: s.name })}
          action={`${stationUrl(s.id)}/delete`}
          fields={{}}
          cancelHref={dataUrl(s.id)}
        />,
      );
    }
    const res = await deleteStation(deps, s.id);
    if (!res.ok) {
      if (res.status === 409) {
        return c.redirect(dataUrl(s.id, { error: "station_has_sensors" }), 303);
      }
      return c.redirect(dataUrl(s.id, { error: "delete_station", reason: res.key }), 303);
    }
    return c.redirect("/admin/devices?done=station_deleted", 303);
  });

  // ---- the sensor form -----------------------------------------------------------------------

  const renderSensorForm = async (
    c: Ctx,
    s: DeviceView,
    sensorId: number | null,
    values: SensorFormValues,
    fieldErrors: FieldErrors = {},
    error?: string,
    status: 200 | 400 = 200,
  ) => {
    const t = c.var.t;
    const sensors = (await listSensorViews(deps, c.var.user!, s.id)) ?? [];
    const tenants = await findUsers(deps, "user");
    const tenantName = new Map(tenants.map((u) => [u.id, u.full_name]));
    const units: UnitChoice[] = (s.config.station?.units ?? []).map((u) => {
      const holder = sensors.find((x) => x.config.sensor?.unit_id === u.id && x.id !== sensorId);
      return {
        id: u.id,
        name: u.name,
        tenant: u.tenant_id ? tenantName.get(u.tenant_id) ?? null : null,
        takenBy: holder?.name ?? null,
      };
    });
    const title = t(`devices.sensor_form.${sensorId === null ? "title_create" : "title_edit"}`);
    return appPage(
      c,
      deps,
      title,
      <SensorForm
        t={t}
        station={{ id: s.id, name: s.name, station_id: s.station_id }}
        id={sensorId}
        values={values}
        units={units}
        tenants={tenants.map((u) => ({ id: u.id, name: u.full_name, email: u.email }))}
        fieldErrors={fieldErrors}
        error={error}
      />,
      status,
    );
  };

  app.get("/admin/devices/station/:id/sensor/create", async (c) => {
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    return renderSensorForm(c, s, null, {
      name: "",
      serial_number: "",
      unit_id: "",
      tenant_id: "",
      ip_address: "",
      mqtt_username: "",
    });
  });

  const postSensor = async (c: Ctx) => {
    const t = c.var.t;
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const rawSensor = c.req.param("sensorId");
    const sensorId = rawSensor === undefined ? null : idParam(rawSensor);
    if (rawSensor !== undefined) {
      const cur = sensorId === null ? null : await getSensorView(deps, c.var.user!, s.id, sensorId);
      if (!cur) return c.redirect(dataUrl(s.id), 303);
    }
    const form = await readForm(c);
    const values = postedSensor(form);
    const failed = t(
      `devices.sensor_form.errors.${sensorId === null ? "create" : "update"}_failed`,
    );
    const parsed = validateDeviceBody(
      sensorBodySchema(sensorId === null ? "create" : "update"),
      sensorBody(values, str(form, "mqtt_password")),
    );
    if (!parsed.ok) {
      return renderSensorForm(c, s, sensorId, values, translate(c, parsed.errors), failed, 400);
    }
    const res = sensorId === null
      ? await createSensor(deps, c.var.user!, s.id, parsed.data)
      : await updateSensor(deps, c.var.user!, s.id, sensorId, parsed.data);
    if (!res.ok) {
      if (res.status === 404 && !res.errors) {
        return res.key === "devices.sensor_form.errors.station_not_found"
          ? stationNotFound(c)
          : c.redirect(dataUrl(s.id), 303);
      }
      const errors = res.errors ? translate(c, res.errors) : {};
      const detail = res.errors ? "" : `: ${tr(c, res.key)}`;
      return renderSensorForm(c, s, sensorId, values, errors, `${failed}${detail}`, 400);
    }
    const done = sensorId === null ? "sensor_created" : "sensor_updated";
    return c.redirect(dataUrl(s.id, { done }), 303);
  };
  app.post("/admin/devices/station/:id/sensor/create", postSensor);

  app.get("/admin/devices/station/:id/sensor/:sensorId", async (c) => {
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const sensorId = idParam(c.req.param("sensorId"));
    const cur = sensorId === null ? null : await getSensorView(deps, c.var.user!, s.id, sensorId);
    if (!cur) {
      return appPage(
        c,
        deps,
        c.var.t("devices.sensor_data.not_found_title"),
        <SensorNotFound t={c.var.t} stationId={s.id} />,
        404,
      );
    }
    return renderSensorForm(c, s, cur.id, sensorValues(cur));
  });
  app.post("/admin/devices/station/:id/sensor/:sensorId", postSensor);

  app.get("/admin/devices/station/:id/sensor/:sensorId/data", async (c) => {
    const t = c.var.t;
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const sensorId = idParam(c.req.param("sensorId"));
    const x = sensorId === null ? null : await getSensorView(deps, c.var.user!, s.id, sensorId);
    if (!x) {
      return appPage(
        c,
        deps,
        t("devices.sensor_data.not_found_title"),
        <SensorNotFound t={t} stationId={s.id} />,
        404,
      );
    }
    const unitId = x.config.sensor?.unit_id ?? null;
    const unit = unitId ? s.config.station?.units.find((u) => u.id === unitId) : undefined;
    const now = deps.now();
    const off = deps.config.utcOffsetMinutes;
    const here = localParts(now, off);
    const thisMonth = `${here.year}-${String(here.month).padStart(2, "0")}`;
    const asked = c.req.query("month");
    const valid = asked !== undefined && isMonth(asked);
    const month = valid ? asked : thisMonth;
    let measurements: Record<string, number> | null = null;
    try {
      measurements = (await realtime(deps, x)).measurements as Record<string, number>;
    } catch (e) {
      deps.log.log("error", "sensor page: realtime failed", { sensor: x.id, error: String(e) });
    }
    let uptime: Awaited<ReturnType<typeof monthlyUptime>> | null = null;
    try {
      uptime = await monthlyUptime(deps, x, month);
    } catch (e) {
      deps.log.log("error", "sensor page: monthly uptime failed", {
        sensor: x.id,
        error: String(e),
      });
    }
    const page = `/admin/devices/station/${s.id}/sensor/${x.id}/data`;
    const ip = x.config.sensor?.ip_address ?? "";
    return appPage(
      c,
      deps,
      x.name,
      <SensorDetail
        t={t}
        locale={c.var.lang}
        sensor={{
          id: x.id,
          name: x.name,
          serial_number: x.serial_number,
          status: x.status,
          lastSeen: lastSeenText(t, x.last_seen, now),
          lastSeenAt: x.last_seen === null ? null : localDateTime(x.last_seen, off),
          created: localDateTime(x.created_at, off),
          station: { id: s.id, name: s.name },
          station_id: x.station_id,
          unit: unitId
            ? unit?.name ?? t("devices.location.unknown_unit")
            : t("devices.location.not_assigned"),
          tenant: x.tenant_id === null
            ? t("devices.location.no_tenant")
            : x.tenant?.full_name ?? t("devices.location.unknown_tenant"),
          ip_address: ip,
          topic_prefix: sensorTopicPrefix(x.serial_number),
          mqtt_username: x.config.mqtt?.username ?? "",
          credentialsSet: (x.config.mqtt?.username ?? "") !== "",
          broker: brokerAddress(deps, c.req.header("host")),
          measurements,
          tls: deps.config.mqtt.url ? undefined : {
            port: deps.config.mqtt.tlsPort === 0 ? null : deps.config.mqtt.tlsPort,
            requireClientCert: deps.config.mqtt.requireClientCert,
          },
          certificate: x.status === "online"
            ? undefined
            : await certificateView(deps, t, s.id, x.id, (n) => c.req.query(n)),
        }}
        uptime={{
          offsetMinutes: off,
          month,
          prevHref: `${page}?month=${shiftMonth(month, -1)}`,
          nextHref: month < thisMonth ? `${page}?month=${shiftMonth(month, 1)}` : null,
          data: uptime,
          invalidMonth: asked !== undefined && !valid ? asked : null,
        }}
        testConnection={testConnectionSlot(deps, t, s.id, x.id, (n) => c.req.query(n))}
      />,
    );
  });

  app.post("/admin/devices/station/:id/sensor/:sensorId/certificate/renew", async (c) => {
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const sensorId = idParam(c.req.param("sensorId"));
    const x = sensorId === null ? null : await getSensorView(deps, c.var.user!, s.id, sensorId);
    if (!x) return c.redirect(dataUrl(s.id), 303);
    const confirmed = str(await readForm(c), "confirm") === "yes";
    return c.redirect(await renewAndReturn(deps, s.id, x.id, confirmed), 303);
  });
  app.post("/admin/devices/station/:id/sensor/:sensorId/certificate/verify", async (c) => {
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const sensorId = idParam(c.req.param("sensorId"));
    const x = sensorId === null ? null : await getSensorView(deps, c.var.user!, s.id, sensorId);
    if (!x) return c.redirect(dataUrl(s.id), 303);
    return c.redirect(await verifyAndReturn(deps, s.id, x.id), 303);
  });

  app.post("/admin/devices/station/:id/sensor/:sensorId/test-mqtt", async (c) => {
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const sensorId = idParam(c.req.param("sensorId"));
    const back = sensorId === null ? null : await testAndReturn(deps, c.var.user!, s.id, sensorId);
    return c.redirect(back ?? dataUrl(s.id), 303);
  });

  app.post("/admin/devices/station/:id/sensor/:sensorId/delete", async (c) => {
    const t = c.var.t;
    const s = await station(c, idParam(c.req.param("id")));
    if (!s) return stationNotFound(c);
    const sensorId = idParam(c.req.param("sensorId"));
    const x = sensorId === null ? null : await getSensorView(deps, c.var.user!, s.id, sensorId);
    if (!x) {
      return c.redirect(
        dataUrl(s.id, { error: "delete_sensor", reason: "devices.api.sensor_not_found" }),
        303,
      );
    }
    const form = await readForm(c);
    if (str(form, "confirm") !== "yes") {
      return appPage(
        c,
        deps,
        t("devices.station_data.delete_sensor_dialog.title"),
        <ConfirmPage
          t={t}
          title={t("devices.station_data.delete_sensor_dialog.title")}
          message={t("devices.station_data.delete_sensor_dialog.message", { name: x.name })}
          action={`${stationUrl(s.id)}/sensor/${x.id}/delete`}
          fields={{}}
          cancelHref={dataUrl(s.id)}
        />,
      );
    }
    const res = await deleteSensor(deps, s.id, x.id);
    if (!res.ok) {
      return c.redirect(dataUrl(s.id, { error: "delete_sensor", reason: res.key }), 303);
    }
    return c.redirect(dataUrl(s.id, { done: "sensor_deleted" }), 303);
  });

  return app;
}
