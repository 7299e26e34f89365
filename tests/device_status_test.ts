/**
 * Device status for ingest (`services/devices/status.ts`): transitions, disconnect events,
 * sensor_offline notifications, batched last_seen, and the device directory.
 */
import assert from "node:assert/strict";
import { account, adminTest, appTest, call, type TestApp } from "./_helpers.ts";
import {
  createDeviceDirectory,
  createSensor,
  createStation,
  createStatusService,
} from "../services/devices/mod.ts";
import { sensorBodySchema, stationBodySchema } from "../core/device_rules.ts";
import { listDisconnectEvents, statusNow } from "../db/device_status.ts";
import { listNotifications } from "../db/notifications.ts";
import type { User } from "../core/types.ts";
import { publicUser } from "../db/users.ts";

const MIN = 60_000;

/** A station with one sensor (serial `ShellyA`) of `tenant`. */
async function setup(t: TestApp, admin: User, tenant: User | null) {
  const station = await createStation(
    t.deps,
    admin,
    stationBodySchema("create").parse({
      name: "Torre Sur",
      location: { city: "Monterrey", state: "NL", country: "MX" },
      serial_number: "ST-9",
      station_id: "torre",
      config: {
        mqtt: { username: "st9", password: "st9-pass-0123456789" },
        station: {
          ssrs: [{ id: "ssr_1", gpio_pin: 0 }],
          units: [{ id: "unit_1", name: "Local 1", ssr_id: "ssr_1" }],
        },
      },
    }),
  );
  const sensor = await createSensor(
    t.deps,
    admin,
    station.id,
    sensorBodySchema("create").parse({
      name: "Medidor 1",
      serial_number: "ShellyA",
      config: {
        mqtt: { username: "shelly-a", password: "a-pass-0123456789" },
        sensor: { unit_id: "unit_1", tenant_id: tenant?.id ?? null, ip_address: "10.0.0.5" },
      },
    }),
  );
  return { station: station.id, sensor: sensor.id };
}

appTest(
  "offline notifies the tenant and every admin in their language; online resolves it",
  async (t) => {
    const admin = await account(t, "admin", { language: "es" });
    const admin2 = await account(t, "admin", { language: "de" });
    const tenant = await account(t, "user", { language: "en" });
    const other = await account(t, "user");
    const customer = await account(t, "customer");
    const { sensor } = await setup(t, publicUser(admin.user), publicUser(tenant.user));
    const svc = createStatusService(t.deps);
    const t0 = Date.UTC(2025, 0, 10, 8, 0, 0);

    await svc.online("ShellyA", t0);
    await svc.offline("shellya", t0 + 10 * MIN, "silence");
    await svc.offline("ShellyA", t0 + 11 * MIN, "will"); // already offline: nothing new

    const active = async (id: number) => await listNotifications(t.deps.kv, id, "active", 50);
    const [mine] = await active(tenant.user.id);
    assert.equal(mine.type, "sensor_offline");
    assert.equal(mine.priority, "high");
    assert.equal(mine.subject_id, String(sensor));
    assert.equal(mine.title, "Sensor offline: Medidor 1");
    assert.ok(mine.message.includes("ShellyA") && mine.message.includes("Torre Sur"), mine.message);
    assert.equal((await active(admin.user.id))[0].title, "Sensor desconectado: Medidor 1");
    assert.equal((await active(admin2.user.id))[0].title, "Sensor offline: Medidor 1");
    assert.ok((await active(admin2.user.id))[0].message.startsWith("Der Sensor"));
    for (const u of [tenant, admin, admin2]) assert.equal((await active(u.user.id)).length, 1);
    assert.deepEqual(await active(other.user.id), []);
    assert.deepEqual(await active(customer.user.id), []);

    // Resolving by hand is refused while offline.
    const refused = await call(t, "POST", `/api/notifications/${mine.id}/resolve`, {
      token: tenant.token,
    });
    assert.equal(refused.status, 400);
    await refused.body?.cancel();

    await svc.online("SHELLYA", t0 + 25 * MIN);
    for (const u of [tenant, admin, admin2]) {
      assert.deepEqual(await active(u.user.id), [], "resolved on reconnect");
      const [resolved] = await listNotifications(t.deps.kv, u.user.id, "resolved", 50);
      assert.equal(resolved.type, "sensor_offline");
    }
    assert.deepEqual(await statusNow(t.deps.kv, sensor), {
      status: "online",
      last_seen: t0 + 25 * MIN,
    });
    await svc.close();
  },
);

adminTest(
  "disconnect events keep their times and durations, listed by time range",
  async ({ t, admin }) => {
    const { sensor, station } = await setup(t, publicUser(admin.user), null);
    const svc = createStatusService(t.deps);
    const t0 = Date.UTC(2025, 2, 1);
    await svc.online("ShellyA", t0);
    await svc.offline("ShellyA", t0 + 60 * MIN, "online_false");
    await svc.online("ShellyA", t0 + 90 * MIN + 4_400);
    await svc.offline("ShellyA", t0 + 200 * MIN, "will");

    const events = await listDisconnectEvents(t.deps.kv, sensor, t0, t0 + 1000 * MIN);
    assert.deepEqual(events, [
      {
        disconnect_time: t0 + 60 * MIN,
        reconnect_time: t0 + 90 * MIN + 4_400,
        still_disconnected: false,
        duration_seconds: 30 * 60 + 4,
        reason: "online_false",
      },
      {
        disconnect_time: t0 + 200 * MIN,
        reconnect_time: null,
        still_disconnected: true,
        duration_seconds: null,
        reason: "will",
      },
    ]);
    // Ranges: an event counts where it overlaps; the open one overlaps everything after it.
    const range = async (from: number, to: number) =>
      (await listDisconnectEvents(t.deps.kv, sensor, t0 + from * MIN, t0 + to * MIN))
        .map((e) => (e.disconnect_time - t0) / MIN);
    assert.deepEqual(await range(0, 60), []);
    assert.deepEqual(await range(70, 80), [60]);
    assert.deepEqual(await range(91, 200), []);
    assert.deepEqual(await range(91, 201), [200]);
    assert.deepEqual(await range(5000, 6000), [200]);
    // A station goes offline without notifying anyone (only sensors notify); one that never
    // connected stays unknown when silent (not installed yet).
    await svc.offline("ST-9", t0 + 5 * MIN, "silence");
    assert.equal((await statusNow(t.deps.kv, station)).status, "unknown");
    await svc.online("ST-9", t0 + 6 * MIN);
    await svc.offline("ST-9", t0 + 10 * MIN, "silence");
    assert.equal((await statusNow(t.deps.kv, station)).status, "offline");
    const notes = await listNotifications(t.deps.kv, admin.user.id, "all", 50);
    assert.deepEqual(notes.map((n) => [n.subject_id, n.status]), [
      [String(sensor), "active"],
      [String(sensor), "resolved"],
    ]);
    // Unknown serials are ignored.
    await svc.offline("nobody", t0, "will");
    await svc.online("nobody", t0);
    await svc.close();
  },
);

adminTest(
  "seen() only batches in memory; last_seen shows after a flush and never goes back",
  async ({ t, admin }) => {
    const { sensor, station } = await setup(t, publicUser(admin.user), null);
    const svc = createStatusService(t.deps, { flushMs: 60_000 });
    svc.seen("ShellyA", 5_000);
    svc.seen("shellya", 9_000);
    svc.seen("ShellyA", 7_000);
    svc.seen("ST-9", 3_000);
    svc.seen("ghost", 1_000);
    assert.equal((await statusNow(t.deps.kv, sensor)).last_seen, null, "nothing written yet");
    await svc.flush();
    assert.equal((await statusNow(t.deps.kv, sensor)).last_seen, 9_000);
    assert.equal((await statusNow(t.deps.kv, station)).last_seen, 3_000);
    svc.seen("ShellyA", 8_000);
    await svc.flush();
    assert.equal((await statusNow(t.deps.kv, sensor)).last_seen, 9_000, "never backwards");
    // The status API reads the flushed value.
    const res = await call(t, "GET", `/api/devices/${sensor}/status`, { token: admin.token });
    assert.deepEqual(await res.json(), { status: "unknown", last_seen: 9_000 });
    // The timer flushes by itself too.
    const quick = createStatusService(t.deps, { flushMs: 10 });
    quick.seen("ShellyA", 20_000);
    // No flush() here: only the 10 ms timer can write it (polled, so a busy machine is not a failure).
    const until = Date.now() + 5_000;
    while ((await statusNow(t.deps.kv, sensor)).last_seen !== 20_000 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal((await statusNow(t.deps.kv, sensor)).last_seen, 20_000);
    await quick.close();
    await svc.close();
  },
);

adminTest(
  "the device directory lists devices, finds them by prefix and checks MQTT logins",
  async ({ t, admin }) => {
    await setup(t, publicUser(admin.user), null);
    const dir = createDeviceDirectory(t.deps);
    const sensor = { serial: "ShellyA", kind: "sensor", prefix: "sensor/shellya" };
    const station = { serial: "ST-9", kind: "station", prefix: "station/ST-9" };
    assert.deepEqual(await dir.list(), [station, sensor]);
    assert.deepEqual(await dir.byPrefix("sensor/shellya"), sensor);
    assert.deepEqual(await dir.byPrefix("station/ST-9"), station);
    assert.equal(await dir.byPrefix("sensor/ShellyA"), null);
    assert.equal(await dir.byPrefix("station/st-9"), null);
    assert.equal(await dir.byPrefix("sensor/ST-9"), null);
    assert.equal(await dir.byPrefix("sensor/shellya/status"), null);
    assert.deepEqual(await dir.authenticate("shelly-a", "a-pass-0123456789"), sensor);
    assert.deepEqual(await dir.authenticate("st9", "st9-pass-0123456789"), station);
    assert.equal(await dir.authenticate("shelly-a", "A-pass-0123456789"), null);
    assert.equal(await dir.authenticate("nobody", "a-pass-0123456789"), null);
  },
);

adminTest(
  "deleting a sensor forgets its status and resolves its offline notices",
  async ({ t, admin }) => {
    const { sensor, station } = await setup(t, publicUser(admin.user), null);
    const svc = createStatusService(t.deps);
    await svc.offline("ShellyA", 1_000, "will");
    assert.equal((await listNotifications(t.deps.kv, admin.user.id, "active", 50)).length, 1);
    const res = await call(t, "DELETE", `/api/devices/${station}/sensors/${sensor}`, {
      token: admin.token,
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    assert.deepEqual(await listNotifications(t.deps.kv, admin.user.id, "active", 50), []);
    assert.deepEqual(await statusNow(t.deps.kv, sensor), { status: "unknown", last_seen: null });
    assert.deepEqual(await listDisconnectEvents(t.deps.kv, sensor, 0, Date.now()), []);
    await svc.close();
  },
);
