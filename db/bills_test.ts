import assert from "node:assert/strict";
import {
  deleteUnitBill,
  listUnitBills,
  readStationBills,
  setUnitBillFinalized,
  type UnitBillDraft,
  writeStationBills,
} from "./bills.ts";

function draft(unit_id: string, energy: number): UnitBillDraft {
  return {
    unit_id,
    station_id: 7,
    billing_month: "2026-01",
    billing_period: null,
    energy_consumption: energy,
    energy_cost: energy * 100,
    base_tariff: 0,
    compensation_cost: 0,
    tax_cost: 0,
    total_cost: energy * 100,
    currency: "MXN",
    payment_status: "pending",
    payment_due_date: "2026-02-13",
    payment_date: null,
    openpay_charge_id: null,
    is_finalized: false,
    is_estimation: false,
    estimation_method: null,
    recalculation_method: null,
    override_reason: null,
    calculation_details: [],
    zone_snapshot: null,
    author: null,
    created_by: null,
    tenant_id: null,
    sensor_serial: null,
    zone_id: 1,
  };
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

    const now = await readStationBills(kv, 7, "2026-01", ["unit_1", "unit_2"]);
    await setUnitBillFinalized(kv, first.created[0].id, true);
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
    assert.equal(await deleteUnitBill(kv, first.created[0].id), "finalized");
    assert.equal(await deleteUnitBill(kv, second.updated[0].id), "deleted");
    assert.equal(await deleteUnitBill(kv, second.updated[0].id), "not_found");
  } finally {
    kv.close();
  }
});
