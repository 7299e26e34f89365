/**
 * The system uptime figures (`/admin/stats`, `/api/measurements/system-stats` and
 * `system-performance`) over a fleet with disconnections: hand-counted rows, and the admin's
 * figures (read from the fleet's event index and the kept statuses) equal to those of an
 * owner who sees the same devices (read device by device).
 */
import assert from "node:assert/strict";
import { account, call, testApp, testsWith } from "./_helpers.ts";
import { storedSensor, storedStation } from "./_devices.ts";
import { createDevice } from "../db/devices.ts";
import { type StoredDevice } from "../core/devices.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { systemPerformance, systemStats } from "../services/measurements.ts";

const H = 3_600_000;
/** 12:00 UTC on a fixed day; the portal's clock stands half an hour later. */
const NOON = Date.UTC(2026, 10, 20, 12);
const NOW = NOON + H / 2;
const LONG_AGO = NOW - 40 * 24 * H;

async function device(kv: Deno.Kv, parent: number | null, d: (id: number) => StoredDevice) {
  const res = await createDevice(kv, parent, (id) => d(id));
  if (!res.ok) throw new Error(JSON.stringify(res));
  return res.device.id;
}

/**
 * Two stations of one owner, online since long ago; sensors A (always online), B (offline
 * 07:00–10:00), C (offline since 10:30), D (never heard from), E (created and online at 09:00).
 */
async function fleet() {
  const t = await testApp({ now: () => NOW });
  const owner = await account(t, "customer");
  const admin = await account(t, "admin");
  const kv = t.deps.kv;
  const station = (serial: string, units: string[]) =>
    device(kv, null, (id) => {
      const st = storedStation(id, serial, { customer_id: owner.user.id, created_at: LONG_AGO });
      const ssrs = st.config.station!.ssrs;
      const unitList = units.map((u) => ({ id: u, name: u, ssr_id: "ssr_1" }));
      return { ...st, config: { ...st.config, station: { ssrs, units: unitList } } };
    });
  const sensor = (st: number, serial: string, unit: string, created_at = LONG_AGO) =>
    device(kv, st, (id) => ({ ...storedSensor(id, st, serial, unit), created_at }));
  const s1 = await station("S1", ["unit_1", "unit_2", "unit_3"]);
  const s2 = await station("S2", ["unit_1", "unit_2"]);
  const a = await sensor(s1, "A", "unit_1");
  const b = await sensor(s1, "B", "unit_2");
  const c = await sensor(s1, "C", "unit_3");
  await sensor(s2, "D", "unit_1");
  const e = await sensor(s2, "E", "unit_2", NOON - 3 * H);
  for (const id of [s1, s2, a, b, c]) await markOnline(kv, id, LONG_AGO);
  await markOffline(kv, b, NOON - 5 * H, "will", []);
  await markOnline(kv, b, NOON - 2 * H);
  await markOffline(kv, c, NOON - 1.5 * H, "silence", []);
  await markOnline(kv, e, NOON - 3 * H);
  return { t, owner: owner.user, admin };
}

/** `Deno.test` in a fresh {@link fleet}, closed however the test ends. */
const fleetTest = testsWith(fleet, (w) => w.t.close());

fleetTest(
  "the connectivity rows count who was online at each hour, from the disconnections",
  async ({ t, owner, admin }) => {
    const res = await call(t, "GET", "/api/measurements/system-performance?timeframe=24h", {
      token: admin.token,
    });
    assert.equal(res.status, 200);
    const rows = (await res.json()).data as Record<string, number>[];
    assert.equal(rows.length, 24);
    // The last eight rows end at 06:00, 07:00, ... 12:00 and at the clock (12:30).
    const last8 = rows.slice(-8);
    assert.deepEqual(last8.map((r) => r.sensors_online), [3, 2, 2, 3, 4, 3, 3, 3]);
    assert.deepEqual(last8.map((r) => r.sensors_total), [4, 4, 4, 5, 5, 5, 5, 5]);
    assert.deepEqual(last8.map((r) => r.sensor_connectivity), [75, 50, 50, 60, 80, 60, 60, 60]);
    assert.ok(rows.every((r) => r.stations_online === 2 && r.stations_total === 2));
    assert.equal(rows.at(-1)!.hour, new Date(NOON).toISOString());

    const stats = await systemStats(t.deps, { ...owner, role: "admin" });
    assert.deepEqual(stats, {
      stationCount: 2,
      stationsOnline: 1, // S1 has a sensor offline
      sensorCount: 5,
      sensorsOnline: 3,
      // A, D and E online throughout; B 3 h and C 2 h offline: 340,200 of 358,200 s.
      uptime: 95,
    });
  },
);

fleetTest(
  "the admin's system figures equal those of an owner who sees the same devices",
  async ({ t, owner }) => {
    const admin = { ...owner, role: "admin" as const };
    assert.deepEqual(await systemStats(t.deps, admin), await systemStats(t.deps, owner));
    for (const tf of ["24h", "7d", "30d"] as const) {
      assert.deepEqual(
        await systemPerformance(t.deps, admin, tf),
        await systemPerformance(t.deps, owner, tf),
        tf,
      );
    }
  },
);
