/**
 * Every portal process is interchangeable (issue 33): two app instances on one KV file (two
 * independent handles, as two processes have). A change made through one is seen through the
 * other at the next request, though each keeps its caches warm in between: the fleet's list
 * and counts, the finance sums and the zones; and an ingest process on the same store takes a
 * meter added through a portal at its next flush (a second), not after its cache's TTL.
 */
import assert from "node:assert/strict";
import { createApp } from "../routes/mod.ts";
import { addStation, billingWorld, processPeriod, unitBillOf } from "./_billing_world.ts";
import { call, type TestApp, zoneBody } from "./_helpers.ts";
import { IngestProcessor } from "../ingest/processor.ts";
import { createDeviceDirectory } from "../services/devices/status.ts";
import { MemoryStatus, MemoryStore } from "./ingest/_helpers.ts";

const NOW = Date.UTC(2026, 4, 15, 18); // 2026-05-15: April has ended

/** A world on a KV file through instance `a`, and instance `b` on its own handle of the file. */
async function replicas(
  fn: (w: Awaited<ReturnType<typeof billingWorld>>, b: TestApp) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const kvA = await Deno.openKv(`${dir}/kv.sqlite3`);
  const kvB = await Deno.openKv(`${dir}/kv.sqlite3`);
  const w = await billingWorld({ now: NOW, owner: true, kv: kvA });
  const depsB = { ...w.t.deps, kv: kvB };
  const b: TestApp = { deps: depsB, app: createApp(depsB), close: () => {} };
  try {
    await fn(w, b);
  } finally {
    w.t.close();
    kvA.close();
    kvB.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function get(t: TestApp, token: string, path: string) {
  const res = await call(t, "GET", path, { token });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json();
}

Deno.test("a station added through one instance is in the other's fleet list and counts", () =>
  replicas(async (w, b) => {
    const before = await get(b, w.admin, "/api/devices/stats");
    const listed = async () =>
      (await get(b, w.admin, "/api/devices")).devices.map((d: { name: string }) => d.name).sort();
    assert.deepEqual(await listed(), ["Medidor 1", "Medidor 2", "Norte"]);
    await addStation(w.t, w.admin, { name: "Sur", serial: "ST-S9", zoneId: w.zoneId }, [
      { id: "unit_1", name: "Piso 1", serial: "SIM-S9", meter: "Medidor S9", tenant: w.tenants[0] },
    ]);
    assert.deepEqual(await listed(), ["Medidor 1", "Medidor 2", "Medidor S9", "Norte", "Sur"]);
    const after = await get(b, w.admin, "/api/devices/stats");
    assert.equal(after.stationCount, before.stationCount + 1);
    assert.equal(after.sensorCount, before.sensorCount + 1);
    assert.equal(after.unitCount, before.unitCount + 1);
  }));

Deno.test("bills made and paid through one instance are in the other's finance sums", () =>
  replicas(async (w, b) => {
    const finances = () => get(b, w.admin, "/api/finances/overview");
    const overview = async () => (await finances()).overview;
    const empty = await overview();
    assert.equal(empty?.total_bills ?? 0, 0);
    await processPeriod(w, "2026-04", { "SIM-A": 300, "SIM-B": 100 });
    const billed = await overview();
    assert.ok(billed.total_bills > 0);
    assert.ok(billed.total_revenue > 0);
    assert.equal(billed.payment_revenue, 0);
    assert.equal((await finances()).unit_billing.monthly.paid_bills, 0);
    const bill = await unitBillOf(w, "2026-04");
    const paid = await call(w.t, "POST", `/api/bills/${bill.id}/payments`, {
      token: w.admin,
      json: { method: "cash", payment_date: "2026-05-15" },
    });
    assert.equal(paid.status, 200, await paid.clone().text());
    assert.ok((await overview()).payment_revenue > 0);
    assert.equal((await finances()).unit_billing.monthly.paid_bills, 1);
  }));

Deno.test("a zone created and renamed through one instance is seen by the other", () =>
  replicas(async (w, b) => {
    const names = async () =>
      (await get(b, w.admin, "/api/zones")).zones.map((z: { name: string }) => z.name).sort();
    const before = await names();
    const res = await call(w.t, "POST", "/api/zones", {
      token: w.admin,
      json: zoneBody({ name: "Zona Centro" }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const id = (await res.json()).id;
    assert.deepEqual(await names(), [...before, "Zona Centro"].sort());
    const zone = await get(w.t, w.admin, `/api/zones/${id}`);
    const renamed = await call(w.t, "PUT", `/api/zones/${id}`, {
      token: w.admin,
      json: { ...zone, name: "Zona Poniente" },
    });
    assert.equal(renamed.status, 200, await renamed.clone().text());
    assert.deepEqual(await names(), [...before, "Zona Poniente"].sort());
    assert.equal((await get(b, w.admin, `/api/zones/${id}`)).name, "Zona Poniente");
  }));

Deno.test("a meter added through a portal is taken by another process's ingest at its next flush", () =>
  replicas(async (w, b) => {
    const store = new MemoryStore();
    const p = new IngestProcessor({
      directory: createDeviceDirectory(b.deps),
      status: new MemoryStatus(),
      store,
      now: () => NOW,
    }, { unknownTtlMs: 600_000, knownTtlMs: 600_000 });
    const reading = JSON.stringify({ id: 0, a_voltage: 230, a_act_power: 100 });
    const send = async () => {
      p.handle("sensor/sim-s9/status/em:0", reading);
      await new Promise((r) => setTimeout(r, 20)); // the directory's answer
    };
    try {
      await p.flush(); // the directory's revision as ingest starts
      await send();
      assert.equal(p.stats().dropped.unknown_device, 1, "not a device yet");
      await addStation(w.t, w.admin, { name: "Sur", serial: "ST-S9", zoneId: w.zoneId }, [
        {
          id: "unit_1",
          name: "Piso 1",
          serial: "SIM-S9",
          meter: "Medidor S9",
          tenant: w.tenants[0],
        },
      ]);
      await p.flush(); // the revision moved: what ingest knew of the directory is asked again
      await send();
      await p.flush();
      assert.equal(p.stats().dropped.unknown_device, 1);
      assert.deepEqual(store.samples.map((s) => s.serial), ["SIM-S9"]);
    } finally {
      await p.close();
    }
  }));
