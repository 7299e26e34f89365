/**
 * A station with one unit and its sensor, created through the Devices API by an admin,
 * three hours back on the app's clock (so that uptime has time to observe); afterwards
 * the clock is the wall clock again, or stands still at `now` when one is given.
 */
import { account, postSensor, postStation, type TestApp, testApp } from "./_helpers.ts";

const H = 3_600_000;

/** What {@link stationWorld} made. */
export interface StationWorld {
  t: TestApp;
  admin: { token: string; id: number };
  tenant: { token: string; id: number };
  stationId: number;
  sensorId: number;
}

/** Station "Residencial Norte" (`norte`, unit_1 "Depto 101") and its sensor SIM0001 of `tenant`. */
export async function postNorte(t: TestApp, adminToken: string, tenant: number) {
  const stationId = await postStation(t, adminToken, {
    name: "Residencial Norte",
    serial: "ST-1",
    stationId: "norte",
    mqtt: { username: "station-1", password: "station-pass" },
    units: [{ id: "unit_1", name: "Depto 101" }],
  });
  const sensorId = await postSensor(t, adminToken, stationId, {
    name: "Medidor 101",
    serial: "SIM0001",
    unit: "unit_1",
    tenant,
    mqtt: { username: "sim0001", password: "pw-sim-0123456789" },
  });
  return { stationId, sensorId };
}

/** Creates the app, an admin, a tenant, the station "Residencial Norte" and sensor SIM0001. */
export async function stationWorld(now?: number): Promise<StationWorld> {
  const clock = (now ?? Date.now()) - 3 * H;
  const t = await testApp({ now: () => clock });
  const admin = await account(t, "admin");
  const tenant = await account(t, "user");
  const { stationId, sensorId } = await postNorte(t, admin.token, tenant.user.id);
  t.deps.now = now === undefined ? Date.now : () => now;
  return {
    t,
    admin: { token: admin.token, id: admin.user.id },
    tenant: { token: tenant.token, id: tenant.user.id },
    stationId,
    sensorId,
  };
}
