/**
 * Many meters going offline at once (ingest's sweep over the KV-backed device status): meters
 * that never connected stay unknown and notify nobody; meters that were connected and go
 * silent together give each recipient one notice, not one per meter; notification ids are
 * taken without a shared counter.
 */
import assert from "node:assert/strict";
import { account, appTest, call, type TestApp } from "./_helpers.ts";
import { MemoryStore } from "./ingest/_helpers.ts";
import { benchUnits, createBenchMeter, createBenchStation } from "../scripts/_bench_devices.ts";
import { createDeviceDirectory, createStatusService } from "../services/devices/mod.ts";
import { IngestProcessor } from "../ingest/processor.ts";
import { listDisconnectEvents, markOnline } from "../db/device_status.ts";
import { createNotification } from "../db/notifications.ts";
import type { Notification } from "../core/types.ts";
import type { StoredUser } from "../db/users.ts";

const SILENCE = 120_000;
const T0 = Date.UTC(2026, 2, 2, 12, 0, 0);

/** A station and its meters (serials `{serial}-M{i}`), each of the given tenant or none. */
async function station(t: TestApp, serial: string, name: string, tenants: (StoredUser | null)[]) {
  const units = benchUnits(tenants.length, (n) => `U${n}`);
  const st = await createBenchStation(t.deps.kv, {
    name,
    serial,
    zoneId: 1,
    units,
    at: T0,
  });
  const meters = [];
  for (const [i, tenant] of tenants.entries()) {
    meters.push(
      await createBenchMeter(t.deps.kv, st.id, {
        name: `${name} ${i + 1}`,
        serial: `${serial}-M${i + 1}`,
        unitId: units[i].id,
        tenantId: tenant?.id ?? null,
        at: T0,
      }),
    );
  }
  return { station: st, meters };
}

/** Ingest over the portal's device status, on a clock the test moves, tracking every device. */
async function ingest(t: TestApp) {
  let now = T0;
  const status = createStatusService(t.deps);
  const directory = createDeviceDirectory(t.deps);
  const processor = new IngestProcessor(
    { directory, status, store: new MemoryStore(), now: () => now },
    { silenceMs: SILENCE },
  );
  processor.preload(await directory.list());
  return {
    processor,
    /** Moves the clock by `ms` and sweeps; resolves once the status changes are written. */
    async sweepAfter(ms: number) {
      now += ms;
      processor.sweep(now);
      await processor.close();
    },
    close: () => status.close(),
  };
}

/** The notifications a signed-in user reads from the API. */
async function notices(t: TestApp, token: string, status = "active"): Promise<Notification[]> {
  const res = await call(t, "GET", `/api/notifications?status=${status}`, { token });
  assert.equal(res.status, 200);
  return (await res.json()).notifications;
}

async function served(t: TestApp, token: string, id: number) {
  const res = await call(t, "GET", `/api/devices/${id}/status`, { token });
  assert.equal(res.status, 200);
  return await res.json();
}

appTest(
  "meters that never connected stay unknown after the sweep: no offline notice, no event",
  async (t) => {
    const admin = await account(t, "admin");
    const tenant = await account(t, "user");
    const others = Array.from({ length: 24 }, () => tenant.user);
    const { station: st, meters } = await station(t, "NEVER", "Nunca", others);
    // One meter of the fleet was connected before the restart: it alone goes offline.
    const [was, ...never] = meters;
    await markOnline(t.deps.kv, was.id, T0 - 3_600_000);
    const i = await ingest(t);
    await i.sweepAfter(SILENCE);

    for (const d of [st, ...never]) {
      assert.deepEqual(await served(t, admin.token, d.id), { status: "unknown", last_seen: null });
      assert.deepEqual(await listDisconnectEvents(t.deps.kv, d.id, 0, T0 + 2 * SILENCE), []);
    }
    assert.equal((await served(t, admin.token, was.id)).status, "offline");
    // The admin and the tenant hear of the one that was connected, once each.
    for (const who of [admin, tenant]) {
      const list = await notices(t, who.token);
      assert.deepEqual(list.map((n) => [n.type, n.subject_id]), [[
        "sensor_offline",
        String(was.id),
      ]]);
    }
    await i.close();
  },
);

appTest(
  "meters going silent together give each recipient one notice, resolved when the last is back",
  async (t) => {
    const admin = await account(t, "admin", { language: "es" });
    const admin2 = await account(t, "admin", { language: "de" });
    const tenants = [];
    for (let k = 0; k < 12; k++) tenants.push(await account(t, "user"));
    const a = await station(t, "TA", "Torre A", tenants.slice(0, 7).map((x) => x.user));
    const b = await station(t, "TB", "Torre B", tenants.slice(7).map((x) => x.user));
    const meters = [...a.meters, ...b.meters];
    const i = await ingest(t);
    // Every meter speaks, then all fall silent at once (a network outage).
    for (const m of meters) i.processor.handle(`${m.config.mqtt.topic_prefix}/online`, "true");
    for (const d of [a.station, b.station]) {
      i.processor.handle(`${d.config.mqtt.topic_prefix}/online`, "true");
    }
    await i.sweepAfter(SILENCE);

    for (const m of meters) assert.equal((await served(t, admin.token, m.id)).status, "offline");
    const [es] = await notices(t, admin.token);
    assert.equal((await notices(t, admin.token)).length, 1, "one notice for the 12 meters");
    assert.partialDeepStrictEqual(es, {
      type: "sensor_offline",
      priority: "high",
      status: "active",
      title: "12 sensores desconectados",
      subject_id: null,
      link: "/admin/devices",
    });
    assert.ok(es.message.includes("Torre A: 7, Torre B: 5"), es.message);
    const de = await notices(t, admin2.token);
    assert.deepEqual(de.map((n) => n.title), ["12 Sensoren offline"]);
    // Each tenant hears of their own meter, in the meter's own words.
    for (const [k, tenant] of tenants.entries()) {
      const list = await notices(t, tenant.token);
      assert.deepEqual(list.map((n) => [n.title, n.subject_id]), [
        [`Sensor offline: ${meters[k].name}`, String(meters[k].id)],
      ]);
    }
    // Not resolvable by hand while the meters are offline.
    const refused = await call(t, "POST", `/api/notifications/${es.id}/resolve`, {
      token: admin.token,
    });
    assert.equal(refused.status, 400);
    await refused.body?.cancel();

    // Back one by one: the summary stays active until the last one is back.
    const status = createStatusService(t.deps);
    for (const m of meters.slice(0, -1)) await status.online(m.serial_number, T0 + 3 * SILENCE);
    assert.deepEqual((await notices(t, admin.token)).map((n) => n.id), [es.id]);
    assert.deepEqual(await notices(t, tenants[0].token), []);
    await status.online(meters.at(-1)!.serial_number, T0 + 3 * SILENCE);
    for (const who of [admin, admin2, ...tenants]) {
      assert.deepEqual(await notices(t, who.token), []);
    }
    assert.deepEqual((await notices(t, admin.token, "resolved")).map((n) => n.id), [es.id]);
    await status.close();
    await i.close();
  },
);

/** `kv` with a count of the atomic commits it refused (a lost check: the writer must retry). */
function countingRefusals(kv: Deno.Kv): { kv: Deno.Kv; refused: () => number } {
  let refused = 0;
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => {
            const res = await commit();
            if (!res.ok) refused++;
            return res;
          };
          return op;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, refused: () => refused };
}

appTest(
  "notifications created at once for many users never wait on a shared id counter",
  async (t) => {
    const users = [await account(t, "user"), await account(t, "user"), await account(t, "user")];
    const { kv, refused } = countingRefusals(t.deps.kv);
    const at = Date.now();
    const created = await Promise.all(Array.from({ length: 60 }, (_, k) =>
      createNotification(kv, {
        user_id: users[k % 3].user.id,
        type: "bill_created",
        priority: "low",
        title: `n${k}`,
        message: "",
      }, at + Math.floor(k / 3))));
    assert.equal(refused(), 0, "no writer lost a check and retried");
    const ids = created.map((n) => n.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.ok(Number.isSafeInteger(id) && id > 0 && String(id).length <= 15);
    // Each user reads theirs newest first, and can act on them by id.
    for (const [k, u] of users.entries()) {
      const mine = created.filter((_, j) => j % 3 === k);
      const list = await notices(t, u.token);
      assert.deepEqual(list.map((n) => n.title), mine.map((n) => n.title).reverse());
      const res = await call(t, "POST", `/api/notifications/${mine[0].id}/resolve`, {
        token: u.token,
      });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).notification.id, mine[0].id);
    }
  },
);

appTest(
  "a status service interrupted for shutdown leaves a sweep's devices as they were",
  async (t) => {
    const admin = await account(t, "admin");
    const { meters } = await station(t, "INT", "Interrumpida", [null, null, null]);
    for (const m of meters) await markOnline(t.deps.kv, m.id, T0);
    const status = createStatusService(t.deps);
    status.interrupt();
    await status.offlineMany(
      meters.map((m) => ({ serial: m.serial_number, ts: T0, reason: "silence" })),
    );
    for (const m of meters) assert.equal((await served(t, admin.token, m.id)).status, "online");
    assert.deepEqual(await notices(t, admin.token), []);
    await status.close();
  },
);
