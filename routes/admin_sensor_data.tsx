/**
 * The sensor detail page (spec 000 section 2): `/admin/devices/station/{id}/sensor/{sensorId}/data`
 * with the sensor's connection, readings, monthly uptime, certificate (renew and verify) and
 * Test MQTT Connection, and the sensor delete with its confirmation.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { z } from "zod";
import { formString as str, idParam, readForm } from "./_http.ts";
import { formChecked, pageText, queryOf } from "./_validate.ts";
import { requireRole } from "./_session.ts";
import { confirmPage, renderPage } from "./_page.tsx";
import { attempt, Refusal } from "./_refusal.tsx";
import { mqttConnection, sensorTopicPrefix, wasEdited } from "../core/devices.ts";
import { monthlyUptime, realtime } from "../services/measurements.ts";
import { deleteSensor } from "../services/devices/mod.ts";
import { replaceSensorMeter } from "../services/devices/meter_history.ts";
import { recordManualReading } from "../services/devices/meter_usage.ts";
import { manualReadingSchema, meterChangeSchema } from "../core/meter_inputs.ts";
import {
  meterCards,
  type MeterFormState,
  postedValues,
  READING_FIELDS,
  REPLACE_FIELDS,
} from "./_meter_page.tsx";
import { shiftMonth } from "../components/devices/sensor/format.ts";
import { uptimeQuerySchema } from "../core/measurement_queries.ts";
import { SensorDetail } from "../components/devices/SensorDetail.tsx";
import { withOpenAlerts } from "../components/alerts/OpenAlerts.tsx";
import { openAlertsView } from "../services/alerts/mod.ts";

const SensorWithAlerts = withOpenAlerts(SensorDetail);
import { testAndReturn, testConnectionSlot } from "./_mqtt_test_page.tsx";
import { tenancyCard } from "./admin_sensor_tenancy.tsx";
import { certificateView, renewAndReturn, verifyAndReturn } from "./_certificate_page.tsx";
import {
  dataUrl,
  lastSeenText,
  loadSensor,
  loadStation,
  type SensorEnv,
  sensorNotFound,
  stationUrl,
} from "./_devices.tsx";
import { clockOf } from "../services/platform/clock.ts";

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

/** The sensor page's path. */
const pageOf = (stationId: number, sensorId: number) =>
  `${stationUrl(stationId)}/sensor/${sensorId}/data`;

/**
 * The sensor page's query: the uptime month, and the outcomes its forms come back with (the
 * meter forms' `done`, the certificate's, the connection test's, the tenancy forms' `t*`),
 * each checked where it is shown.
 */
const PAGE_KEYS = [
  "month",
  "done",
  "verified",
  "certificate_error",
  "mqtt_test",
  "mqtt_detail",
  "td",
  "te",
  "tf",
  "tform",
  "tp",
] as const;
type PageKey = typeof PAGE_KEYS[number];
const PAGE_QUERY = z.object(
  Object.fromEntries(PAGE_KEYS.map((k) => [k, pageText])) as Record<PageKey, typeof pageText>,
);

/**
 * The sensor page of the loaded sensor; `refused` is a meter form that comes back with its
 * values and errors (400).
 */
async function sensorPage(deps: Deps, c: Context<SensorEnv>, refused?: MeterFormState) {
  const t = c.var.t;
  const s = c.var.station;
  const x = c.var.sensor;
  const unitId = x.config.sensor?.unit_id ?? null;
  const unit = unitId ? s.config.station?.units.find((u) => u.id === unitId) : undefined;
  const clock = clockOf(deps);
  const now = clock.now();
  const off = clock.offsetMinutes();
  const thisMonth = clock.month();
  const q = queryOf(c, PAGE_QUERY);
  const query = (name: string) => q[name as PageKey];
  // A month that is not one is named in a notice and the page shows this month.
  const asked = q.month;
  const checked = formChecked(uptimeQuerySchema, { month: asked });
  const valid = asked !== undefined && !(checked instanceof Refusal);
  const month = !(checked instanceof Refusal) && checked.month ? checked.month : thisMonth;
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
  const page = `${stationUrl(s.id)}/sensor/${x.id}/data`;
  const ip = x.config.sensor?.ip_address ?? "";
  const openAlerts = await openAlertsView(deps, c.var.user, c.var.lang, { device_id: x.id }, page);
  return renderPage(c, deps, x.name, SensorWithAlerts, {
    openAlerts,
    locale: c.var.lang,
    sensor: {
      id: x.id,
      name: x.name,
      serial_number: x.serial_number,
      status: x.status,
      lastSeen: lastSeenText(t, x.last_seen, now),
      lastSeenAt: x.last_seen === null ? null : clock.localDateTime(x.last_seen),
      created: clock.localDateTime(x.created_at),
      updated: wasEdited(x) ? clock.localDateTime(x.updated_at) : null,
      connection: mqttConnection(x.status),
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
        : await certificateView(deps, t, s.id, x.id, query),
    },
    uptime: {
      offsetMinutes: off,
      month,
      prevHref: `${page}?month=${shiftMonth(month, -1)}`,
      nextHref: month < thisMonth ? `${page}?month=${shiftMonth(month, 1)}` : null,
      data: uptime,
      invalidMonth: asked !== undefined && !valid ? asked : null,
    },
    testConnection: testConnectionSlot(deps, t, s.id, x.id, query),
    meters: await meterCards(c, deps, s.id, x, refused, q.done),
    tenancy: unitId ? await tenancyCard(deps, t, query, s.id, x) : undefined,
  }, refused ? 400 : 200);
}

/** The sensor detail page and its actions, mounted at `/admin/devices/station/:id/sensor`. */
export function adminSensorDataRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));
  /** A missing sensor: 'Sensor Not Found' on its page, back to the station for actions. */
  const notFoundPage = loadSensor(deps, (c, stationId) => sensorNotFound(c, deps, stationId));
  const backToStation = loadSensor(deps, (c, stationId) => c.redirect(dataUrl(stationId), 303));
  const deleteMissing = loadSensor(
    deps,
    (c, stationId) =>
      c.redirect(
        dataUrl(stationId, { error: "delete_sensor", reason: "devices.api.sensor_not_found" }),
        303,
      ),
  );

  app.get("/:sensorId/data", loadStation(deps), notFoundPage, (c) => sensorPage(deps, c));

  app.post("/:sensorId/meter/reading", loadStation(deps), backToStation, async (c) => {
    const s = c.var.station;
    const x = c.var.sensor;
    const values = postedValues(await readForm(c), READING_FIELDS);
    const parsed = formChecked(manualReadingSchema(clockOf(deps).offsetMinutes()), values);
    const error = c.var.t("meters.errors.reading_failed");
    if (parsed instanceof Refusal) {
      return sensorPage(deps, c, { form: "reading", values, errors: parsed.fields, error });
    }
    const res = await attempt(recordManualReading(deps, x.id, { ...parsed, by: c.var.user.id }));
    if (res instanceof Refusal) {
      if (res.kind === "not_found") return c.redirect(dataUrl(s.id), 303);
      const named = Object.keys(res.fields).length > 0;
      const { fields: errors, params } = res;
      const detail = named ? error : `${error}: ${c.var.t(res.key, res.params)}`;
      return sensorPage(deps, c, { form: "reading", values, errors, error: detail, params });
    }
    return c.redirect(`${pageOf(s.id, x.id)}?done=reading_saved#meters`, 303);
  });

  app.post("/:sensorId/meter/replace", loadStation(deps), backToStation, async (c) => {
    const s = c.var.station;
    const x = c.var.sensor;
    const values = postedValues(await readForm(c), REPLACE_FIELDS);
    const parsed = formChecked(meterChangeSchema(clockOf(deps).offsetMinutes()), values);
    const error = c.var.t("meters.errors.replace_failed");
    if (parsed instanceof Refusal) {
      return sensorPage(deps, c, { form: "replace", values, errors: parsed.fields, error });
    }
    const res = await attempt(replaceSensorMeter(deps, c.var.user, s.id, x.id, parsed));
    if (res instanceof Refusal) {
      if (res.kind === "not_found") return c.redirect(dataUrl(s.id), 303);
      const named = Object.keys(res.fields).length > 0;
      const { fields: errors, params } = res;
      const detail = named ? error : `${error}: ${c.var.t(res.key, res.params)}`;
      return sensorPage(deps, c, { form: "replace", values, errors, error: detail, params });
    }
    return c.redirect(`${pageOf(s.id, x.id)}?done=meter_replaced#meters`, 303);
  });

  app.post("/:sensorId/certificate/renew", loadStation(deps), backToStation, async (c) => {
    const s = c.var.station;
    const x = c.var.sensor;
    const confirmed = str(await readForm(c), "confirm") === "yes";
    return c.redirect(await renewAndReturn(acting(c, deps), s.id, x.id, confirmed), 303);
  });
  app.post("/:sensorId/certificate/verify", loadStation(deps), backToStation, async (c) => {
    const s = c.var.station;
    const x = c.var.sensor;
    return c.redirect(await verifyAndReturn(deps, s.id, x.id), 303);
  });

  app.post("/:sensorId/test-mqtt", loadStation(deps), async (c) => {
    const s = c.var.station;
    const sensorId = idParam(c.req.param("sensorId"));
    const back = sensorId === null ? null : await testAndReturn(deps, s.id, sensorId);
    return c.redirect(back ?? dataUrl(s.id), 303);
  });

  app.post("/:sensorId/delete", loadStation(deps), deleteMissing, async (c) => {
    const t = c.var.t;
    const s = c.var.station;
    const x = c.var.sensor;
    const form = await readForm(c);
    if (str(form, "confirm") !== "yes") {
      return confirmPage(c, deps, {
        title: t("devices.station_data.delete_sensor_dialog.title"),
        message: t("devices.station_data.delete_sensor_dialog.message", { name: x.name }),
        action: `${stationUrl(s.id)}/sensor/${x.id}/delete`,
        fields: {},
        cancelHref: dataUrl(s.id),
      });
    }
    const res = await attempt(deleteSensor(acting(c, deps), s.id, x.id));
    if (res instanceof Refusal) {
      return c.redirect(dataUrl(s.id, { error: "delete_sensor", reason: res.key }), 303);
    }
    return c.redirect(dataUrl(s.id, { done: "sensor_deleted" }), 303);
  });

  return app;
}
