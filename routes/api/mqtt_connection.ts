/**
 * Test MQTT Connection (spec 000 section 7), mounted at /api/devices:
 * `POST /api/devices/{stationId}/sensors/{sensorId}/test-mqtt-connection` (admin) signs in
 * to the meters' broker as the sensor and answers `{success, message}` in the caller's
 * language; 404 `{message}` when the station has no such sensor.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { requireApiRole } from "../_session.ts";
import { probeMessage, testSensorConnection } from "../../services/devices/mod.ts";

/** Routes of the connection test. */
export function mqttConnectionApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.post(
    "/:id/sensors/:sensorId/test-mqtt-connection",
    requireApiRole("admin"),
    async (c) => {
      const stationId = idParam(c.req.param("id"));
      const sensorId = idParam(c.req.param("sensorId"));
      const result = stationId === null || sensorId === null
        ? null
        : await testSensorConnection(deps, stationId, sensorId);
      if (!result) return c.json({ message: c.var.t("mqtt_test.sensor_not_found") }, 404);
      return c.json({ success: result.ok, message: probeMessage(c.var.t, result) });
    },
  );
  return app;
}
