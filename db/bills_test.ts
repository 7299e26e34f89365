import assert from "node:assert/strict";
import {
  billsDueBefore,
  commitPeriodChange,
  getUnitBill,
  listUnitBills,
  listUnitBillsOfTenant,
  readPeriodBills,
  readStationBills,
  type UnitBillDraft,
  writeStationBills,
} from "./bills.ts";
import { buildUnitBill } from "../core/bill.ts";
import type { UnitBillResult } from "../core/tariff.ts";

function draft(
  unit_id: string,
  energy: number,
  final = false,
  tenant_id: number | null = null,
  period = "2026-01",
): UnitBillDraft {
  const computed: UnitBillResult = {
    pricing_mode: "basic",
    energy_consumption: energy,
    energy_cost: energy * 100,
    base_tariff: 0,
    compensation_cost: 0,
    tax_cost: 0,
    total_cost: energy * 100,
    currency: "MXN",
    season: null,
    winter_days: 0,
    summer_days: 0,
    calculation_details: [],
  };
  return buildUnitBill({
    unit_id,
    station_id: 7,
    zone_id: 1,
    period: { text: period, kind: "monthly" },
    tenant_id,
    sensor_serial: null,
    zone_snapshot: null,
    author: null,
    estimation: null,
    finalize: final
      ? { at: "2026-02-02T12:00:00.000Z", on: { year: 2026, month: 2, day: 2 } }
      : null,
  }, computed);
}

Deno.test("writeStationBills() keeps one bill per unit and period, and refuses a stale write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const prev = await readStationBills(kv, 7, "2026-01", ["unit_1", "unit_2"]);
    const writes = (e: number) =>
      ["unit_1", "unit_2"].map((u) => ({ draft: draft(u, e), prev: prev.units.get(u)! }));
    const first = await writeStationBills(kv, 7, "2026-01", writes(10), null, 1000);
    assert.ok(first.ok);
    assert.equal(first.created.length, 2);
    // The same versionstamps again: something changed since, nothing is written.
    const stale = await writeStationBills(kv, 7, "2026-01", writes(20), null, 2000);
    assert.deepEqual(stale, { ok: false, reason: "conflict" });
    assert.deepEqual((await listUnitBills(kv)).map((b) => b.energy_consumption), [10, 10]);

    // unit_1 is finalized by a later run; unit_2 stays a draft of that run.
    const now = await readStationBills(kv, 7, "2026-01", ["unit_1", "unit_2"]);
    const fin = await writeStationBills(
      kv,
      7,
      "2026-01",
      [
        { draft: draft("unit_1", 10, true), prev: now.units.get("unit_1")! },
      ],
      null,
      2500,
    );
    assert.ok(fin.ok);
    assert.equal(fin.updated[0].id, first.created[0].id);
    // Finalized and unpaid: in the due-date index; a draft is not.
    assert.deepEqual(await billsDueBefore(kv, "2026-12-31", 10), [first.created[0].id]);
    const again = await readStationBills(kv, 7, "2026-01", ["unit_1", "unit_2"]);
    const second = await writeStationBills(
      kv,
      7,
      "2026-01",
      ["unit_1", "unit_2"].map((u) => ({ draft: draft(u, 30), prev: again.units.get(u)! })),
      null,
      3000,
    );
    assert.ok(second.ok);
    assert.equal(second.skipped.length, 1);
    assert.equal(second.updated.length, 1);
    assert.equal(second.updated[0].id, now.units.get("unit_2")!.value!.id);
    assert.deepEqual((await listUnitBills(kv)).map((b) => b.energy_consumption), [10, 30]);

    // Removing a bill takes its id and due-date index with it, in one checked commit.
    const read = await readPeriodBills(kv, 7, "2026-01");
    const gone = read.units.find((e) => e.value.unit_id === "unit_1")!.value;
    assert.ok(await commitPeriodChange(kv, read, { remove: [gone] }));
    assert.equal(await getUnitBill(kv, gone.id), null);
    assert.deepEqual(await billsDueBefore(kv, "2026-12-31", 10), []);
    assert.equal(await commitPeriodChange(kv, read, { remove: [gone] }), false);
  } finally {
    kv.close();
  }
});

Deno.test("a tenant's bills are read through the tenant index, which follows rewrites, removals and older stores", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  let kv = await Deno.openKv(path);
  const write = async (period: string, tenants: Record<string, number | null>) => {
    const units = Object.keys(tenants);
    const prev = await readStationBills(kv, 7, period, units);
    const res = await writeStationBills(
      kv,
      7,
      period,
      units.map((u) => ({
        draft: draft(u, 10, false, tenants[u], period),
        prev: prev.units.get(u)!,
      })),
      null,
      1000,
    );
    assert.ok(res.ok);
  };
  const ofTenant = async (id: number) =>
    (await listUnitBillsOfTenant(kv, id)).map((b) => `${b.billing_month} ${b.unit_id}`);
  // What a scan of every bill says, for comparison.
  const scanned = async (id: number) =>
    (await listUnitBills(kv)).filter((b) => b.tenant_id === id).map((b) =>
      `${b.billing_month} ${b.unit_id}`
    );
  try {
    await write("2026-01", { unit_1: 5, unit_2: 6, unit_3: null });
    await write("2026-02", { unit_1: 6, unit_2: 6 });
    assert.deepEqual(await ofTenant(5), ["2026-01 unit_1"]);
    assert.deepEqual(await ofTenant(6), ["2026-01 unit_2", "2026-02 unit_1", "2026-02 unit_2"]);

    // A draft written again for another tenant moves in the index.
    await write("2026-01", { unit_2: 5 });
    assert.deepEqual(await ofTenant(5), ["2026-01 unit_1", "2026-01 unit_2"]);
    assert.deepEqual(await ofTenant(6), ["2026-02 unit_1", "2026-02 unit_2"]);

    // A removed bill leaves it.
    const read = await readPeriodBills(kv, 7, "2026-02");
    assert.ok(
      await commitPeriodChange(kv, read, {
        remove: [read.units.find((e) => e.value.unit_id === "unit_1")!.value],
      }),
    );
    assert.deepEqual(await ofTenant(6), ["2026-02 unit_2"]);

    // A store written before the index existed: it is built on the first read, once for
    // readers that ask at the same time.
    for await (const e of kv.list({ prefix: ["unit_bills_by_tenant"] })) await kv.delete(e.key);
    await kv.delete(["unit_bills_by_tenant_built"]);
    kv.close();
    kv = await Deno.openKv(path);
    const together = await Promise.all([5, 6].map((id) => listUnitBillsOfTenant(kv, id)));
    assert.deepEqual(together.map((l) => l.length), [2, 1]);
    for (const id of [5, 6, 7]) assert.deepEqual(await ofTenant(id), await scanned(id));
    assert.deepEqual(await ofTenant(5), ["2026-01 unit_1", "2026-01 unit_2"]);
  } finally {
    kv.close();
    await Deno.remove(path).catch(() => {});
  }
});
