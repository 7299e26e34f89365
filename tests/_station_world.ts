/**
 * A station with one unit and its sensor, created through the Devices API by an admin,
 * three hours back on the app's clock (so that uptime has time to observe); afterwards
 * the clock is the wall clock again, or stands still at `now` when one is given.
 */
import assert from "node:assert/strict";
import { account, call, type TestApp, testApp } from "./_helpers.ts";

const H = 3_600_000;

/** What {@link stationWorld} made. */
export interface StationWorld {
  t: TestApp;
  admin: { token: string; id: number };
  tenant: { token: string; id: number };
  stationId: number;
  sensorId: number;
}

/** Creates the app, an admin, a tenant, the station "Residencial Norte" and sensor SIM0001. */
export async function stationWorld(now?: number): Promise<StationWorld> {
  const clock = (now ?? Date.now()) - 3 * H;
  const t = await testApp({ now: () => clock });
  const admin = await account(t, "admin");
  const tenant = await account(t, "user");
  const station = await call(t, "POST", "/api/devices", {
    token: admin.token,
    json: {
      name: "Residencial Norte",
      location: JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" }),
      serial_number: "ST-1",
      station_id: "norte",
      zone_id: null,
      type: "station",
      config: {
        mqtt: { username: "station-1", password: "station-pass", topic_prefix: "x" },
        station: {
          ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
          units: [{ id: "unit_1", name: "Depto 101", ssr_id: "ssr_1" }],
        },
      },
    },
  });
  assert.equal(station.status, 201, await station.clone().text());
  const stationId = (await station.json()).id;
  const sensor = await call(t, "POST", `/api/devices/${stationId}/sensors`, {
    token: admin.token,
    json: {
      name: "Medidor 101",
      serial_number: "SIM0001",
      type: "sensor",
      config: {
        mqtt: { username: "sim0001", password: "pw-sim-0123456789", topic_prefix: "x" },
        sensor: { unit_id: "unit_1", tenant_id: tenant.user.id, ip_address: "10.0.0.5" },
      },
    },
  });
  assert.equal(sensor.status, 201, await sensor.clone().text());
  const sensorId = (await sensor.json()).id;
  t.deps.now = now === undefined ? Date.now : () => now;
  return {
    t,
    admin: { token: admin.token, id: admin.user.id },
    tenant: { token: tenant.token, id: tenant.user.id },
    stationId,
    sensorId,
  };
}
