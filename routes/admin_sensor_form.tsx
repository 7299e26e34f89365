/**
 * The sensor form (spec 000 section 2): `/admin/devices/station/{id}/sensor/create` and
 * `/admin/devices/station/{id}/sensor/{sensorId}`; the unit must be a unit of the station.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { type Form, formString as str, idParam, readForm } from "./_http.ts";
import { requireRole } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import type { FieldErrors } from "../core/schemas.ts";
import { type DeviceView, sensorTopicPrefix } from "../core/devices.ts";
import { sensorBodySchema } from "../core/device_rules.ts";
import { formChecked } from "./_validate.ts";
import {
  createSensor,
  getSensorView,
  listSensorViews,
  updateSensor,
} from "../services/devices/mod.ts";
import { findUsers } from "../services/accounts.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import {
  SensorForm,
  type SensorFormValues,
  type UnitChoice,
} from "../components/devices/SensorForm.tsx";
import {
  dataUrl,
  DEVICE_RULES,
  loadStation,
  sensorNotFound,
  type StationEnv,
  stationNotFound,
  tr,
  translate,
} from "./_devices.tsx";

// ---- the sensor form's values ----------------------------------------------------------------

function sensorValues(s: DeviceView): SensorFormValues {
  return {
    name: s.name,
    serial_number: s.serial_number,
    unit_id: s.config.sensor?.unit_id ?? "",
    tenant_id: s.tenant_id === null ? "" : String(s.tenant_id),
    ip_address: s.config.sensor?.ip_address ?? "",
    master: s.config.sensor?.master === true,
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
    master: str(form, "master") === "yes",
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
      sensor: {
        unit_id: v.unit_id,
        tenant_id: v.tenant_id || null,
        ip_address: v.ip_address,
        master: v.master,
      },
    },
  };
}

/** The sensor form's pages, mounted at `/admin/devices/station/:id/sensor`. */
export function adminSensorFormRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  const renderSensorForm = async <E extends UserEnv>(
    c: Context<E>,
    s: DeviceView,
    sensorId: number | null,
    values: SensorFormValues,
    fieldErrors: FieldErrors = {},
    error?: string,
    status: 200 | 400 = 200,
  ) => {
    const t = c.var.t;
    const sensors = (await listSensorViews(deps, c.var.user, s.id)) ?? [];
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
    return renderPage(c, deps, title, SensorForm, {
      station: { id: s.id, name: s.name, station_id: s.station_id },
      id: sensorId,
      values,
      units,
      tenants: tenants.map((u) => ({ id: u.id, name: u.full_name, email: u.email })),
      fieldErrors,
      error,
    }, status);
  };

  app.get("/create", loadStation(deps), (c) => {
    return renderSensorForm(c, c.var.station, null, {
      name: "",
      serial_number: "",
      unit_id: "",
      tenant_id: "",
      ip_address: "",
      master: false,
      mqtt_username: "",
    });
  });

  const postSensor = async <E extends StationEnv>(c: Context<E>, rawSensor: string | undefined) => {
    const t = c.var.t;
    const s = c.var.station;
    const sensorId = rawSensor === undefined ? null : idParam(rawSensor);
    if (rawSensor !== undefined) {
      const cur = sensorId === null ? null : await getSensorView(deps, c.var.user, s.id, sensorId);
      if (!cur) return c.redirect(dataUrl(s.id), 303);
    }
    const form = await readForm(c);
    const values = postedSensor(form);
    const failed = t(
      `devices.sensor_form.errors.${sensorId === null ? "create" : "update"}_failed`,
    );
    const parsed = formChecked(
      sensorBodySchema(sensorId === null ? "create" : "update"),
      sensorBody(values, str(form, "mqtt_password")),
      DEVICE_RULES,
    );
    if (parsed instanceof Refusal) {
      return renderSensorForm(c, s, sensorId, values, translate(c, parsed.fields), failed, 400);
    }
    const res = await attempt(
      sensorId === null
        ? createSensor(acting(c, deps), c.var.user, s.id, parsed)
        : updateSensor(acting(c, deps), c.var.user, s.id, sensorId, parsed),
    );
    if (res instanceof Refusal) {
      if (res.kind === "not_found") {
        return res.key === "devices.sensor_form.errors.station_not_found"
          ? stationNotFound(c, deps)
          : c.redirect(dataUrl(s.id), 303);
      }
      const named = Object.keys(res.fields).length > 0;
      const errors = named ? translate(c, res.fields) : {};
      const detail = named ? "" : `: ${tr(c, res.key)}`;
      return renderSensorForm(c, s, sensorId, values, errors, `${failed}${detail}`, 400);
    }
    const done = sensorId === null ? "sensor_created" : "sensor_updated";
    return c.redirect(dataUrl(s.id, { done }), 303);
  };
  app.post("/create", loadStation(deps), (c) => postSensor(c, undefined));

  app.get("/:sensorId", loadStation(deps), async (c) => {
    const s = c.var.station;
    const sensorId = idParam(c.req.param("sensorId"));
    const cur = sensorId === null ? null : await getSensorView(deps, c.var.user, s.id, sensorId);
    if (!cur) return sensorNotFound(c, deps, s.id);
    return renderSensorForm(c, s, cur.id, sensorValues(cur));
  });
  app.post("/:sensorId", loadStation(deps), (c) => postSensor(c, c.req.param("sensorId")));

  return app;
}
