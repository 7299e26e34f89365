/**
 * A sensor's meters over time (admin), mounted at /api/devices:
 * - `GET /api/devices/{stationId}/sensors/{sensorId}/meters` → `{meters, readings}`: the meters
 *   that measured the unit (newest first; `from` null for since ever, `to` null while in
 *   service) and its manual readings (newest first), times in epoch ms.
 * - `POST .../meters` body `serial_number`, `at`, `last_kwh`, `first_kwh` (optional) replaces
 *   the meter → the sensor as `GET .../sensors/{sensorId}` serves it.
 * - `POST .../manual-readings` body `at`, `kwh`, `note` → 201 `{reading}`.
 *
 * `at` is an ISO 8601 instant with its zone or epoch ms. A 400 answers `{message, errors}`
 * by field, in the caller's language, and changes nothing.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { jsonInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import type { MeterPeriod } from "../../core/meters.ts";
import { manualReadingSchema, meterChangeSchema } from "../../core/meter_inputs.ts";
import { getSensorView, SENSOR_NOT_FOUND } from "../../services/devices/mod.ts";
import { meterOverview, replaceSensorMeter } from "../../services/devices/meter_history.ts";
import { recordManualReading } from "../../services/devices/meter_usage.ts";
import { clockOf } from "../../services/platform/clock.ts";

type Ctx = Context<UserEnv>;

/** A meter as JSON: `from` null for a meter there since the sensor's start. */
const meterJson = (m: MeterPeriod) => ({ ...m, from: Number.isFinite(m.from) ? m.from : null });

/** The routes of a sensor's meters. */
export function meterApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const admin = requireApiRole("admin");

  /** The sensor the path names, or null (after answering 404). */
  const sensorOf = async (c: Ctx) => {
    const stationId = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    if (stationId === null || sensorId === null) return null;
    return await getSensorView(deps, c.var.user, stationId, sensorId);
  };
  const missing = (c: Ctx) => c.json({ message: c.var.t(SENSOR_NOT_FOUND) }, 404);
  const off = clockOf(deps).offsetMinutes();
  const change = jsonInput(meterChangeSchema(off), { message: "meters.errors.replace_failed" });
  const reading = jsonInput(manualReadingSchema(off), { message: "meters.errors.reading_failed" });

  app.get("/:id/sensors/:sensorId/meters", admin, async (c) => {
    const sensor = await sensorOf(c);
    if (!sensor) return missing(c);
    const o = await meterOverview(deps, sensor);
    return c.json({ meters: o.meters.map(meterJson), readings: o.readings });
  });

  app.post("/:id/sensors/:sensorId/meters", admin, change, async (c) => {
    const sensor = await sensorOf(c);
    if (!sensor) return missing(c);
    const stationId = idParam(c.req.param("id"))!;
    const input = c.req.valid("json");
    const view = await replaceSensorMeter(deps, c.var.user, stationId, sensor.id, input);
    return c.json(view);
  });

  app.post("/:id/sensors/:sensorId/manual-readings", admin, reading, async (c) => {
    const sensor = await sensorOf(c);
    if (!sensor) return missing(c);
    const input = c.req.valid("json");
    const stored = await recordManualReading(deps, sensor.id, { ...input, by: c.var.user.id });
    return c.json({ reading: stored }, 201);
  });
  return app;
}
