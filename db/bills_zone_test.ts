/**
 * The zone indexes and counters of the bills (db/bills.ts's layout): what they answer must be
 * what a scan of every bill answers, after every kind of write, under concurrent runs, and for
 * a store written before they existed.
 */
import assert from "node:assert/strict";
import {
  billedPeriods,
  commitPeriodChange,
  deleteCustomerBill,
  getCustomerBillEntry,
  getUnitBillEntry,
  listCustomerBills,
  listCustomerBillsOfZone,
  listUnitBills,
  readPeriodBills,
  readStationBills,
  type StoredUnitBill,
  unitBillCounts,
  unitBillRefs,
  unitBillsAt,
  updateUnitBill,
  writeStationBills,
} from "./bills.ts";
import { periodOfBill, slotOf } from "../core/bill.ts";
import { listStatus } from "../core/bill_status.ts";
import { billPeriod, customerBillDraft, unitBillDraft } from "../tests/_bills.ts";

interface Unit {
  energy?: number;
  zone?: number;
  final?: boolean;
  tenant?: number | null;
}

/**
 * Bills the units of a station for a period as a billing run does: reads, writes in one
 * checked commit, and on a conflict reads again and retries. With a station bill.
 */
async function run(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  units: Record<string, Unit>,
  zone = 1,
) {
  const ids = Object.keys(units);
  for (;;) {
    const prev = await readStationBills(kv, stationId, period, ids);
    const res = await writeStationBills(
      kv,
      stationId,
      period,
      ids.map((u) => ({
        draft: unitBillDraft({
          unit_id: u,
          station_id: stationId,
          zone_id: units[u].zone ?? zone,
          tenant_id: units[u].tenant ?? null,
          energy_consumption: units[u].energy ?? 100,
          total_cost: (units[u].energy ?? 100) * 3,
          is_finalized: units[u].final ?? false,
          payment_due_date: units[u].final ? "2026-12-31" : null,
          finalized_at: units[u].final ? "2026-12-01T00:00:00.000Z" : null,
          ...billPeriod(period),
        }),
        prev: prev.units.get(u)!,
      })),
      {
        draft: customerBillDraft({ station_id: stationId, zone_id: zone, ...billPeriod(period) }),
        prev: prev.customer,
      },
      Date.parse("2026-12-01T00:00:00Z"),
    );
    if (res.ok) return res;
  }
}

/** Asserts that every zone index and counter answers what a scan of every bill answers. */
async function assertMatchesScan(kv: Deno.Kv) {
  const units = await listUnitBills(kv);
  const customers = await listCustomerBills(kv);
  const groups = new Map<string, { zone: number; period: string; bills: StoredUnitBill[] }>();
  for (const b of units) {
    const id = `${b.zone_id} ${periodOfBill(b)}`;
    if (!groups.has(id)) groups.set(id, { zone: b.zone_id, period: periodOfBill(b), bills: [] });
    groups.get(id)!.bills.push(b);
  }
  const listed = (await billedPeriods(kv, "units")).map((p) => `${p.zone_id} ${p.period}`);
  assert.deepEqual(listed.sort(), [...groups.keys()].sort());
  for (const { zone, period, bills } of groups.values()) {
    assert.deepEqual(await unitBillCounts(kv, zone, period), {
      total: bills.length,
      finalized: bills.filter((b) => b.is_finalized).length,
    }, `${zone} ${period}`);
    const refs = await unitBillRefs(kv, zone, period);
    assert.deepEqual(
      refs,
      bills.map((b) => ({
        id: b.id,
        station_id: b.station_id,
        unit_id: b.unit_id,
        unit_part: slotOf(b),
        tenant_id: b.tenant_id,
        energy_consumption: b.energy_consumption,
        total_cost: b.total_cost,
        is_finalized: b.is_finalized,
        status: listStatus(b, false).key,
      })),
    );
    assert.deepEqual(await unitBillsAt(kv, zone, period, refs), bills);
    // The first page alone: the first entries only.
    assert.deepEqual(await unitBillRefs(kv, zone, period, 1), refs.slice(0, 1));
  }
  const custGroups = new Set(customers.map((c) => `${c.zone_id} ${periodOfBill(c)}`));
  const custListed = (await billedPeriods(kv, "stations")).map((p) => `${p.zone_id} ${p.period}`);
  assert.deepEqual(custListed.sort(), [...custGroups].sort());
  for (const g of custGroups) {
    const [zone, period] = [Number(g.split(" ")[0]), g.split(" ")[1]];
    assert.deepEqual(
      await listCustomerBillsOfZone(kv, zone, period),
      customers.filter((c) => c.zone_id === zone && periodOfBill(c) === period),
    );
  }
}

Deno.test("a zone's unit bills are counted and listed through its index after every kind of write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Created: two stations of zone 1, another period, and a station of zone 2.
    await run(kv, 8, "2026-01", { unit_1: {}, unit_2: { tenant: 4 } });
    await run(kv, 7, "2026-01", { unit_2: { energy: 50 }, unit_1: { energy: 70 } });
    await run(kv, 7, "2026-02", { unit_1: {} });
    await run(kv, 9, "2026-01", { unit_1: {} }, 2);
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-01"), { total: 4, finalized: 0 });
    // The bills' key order: station, then unit.
    assert.deepEqual(
      (await unitBillRefs(kv, 1, "2026-01")).map((r) => `${r.station_id} ${r.unit_id}`),
      ["7 unit_1", "7 unit_2", "8 unit_1", "8 unit_2"],
    );
    assert.deepEqual(await unitBillCounts(kv, 3, "2026-01"), { total: 0, finalized: 0 });
    await assertMatchesScan(kv);

    // Run again (the drafts are updated): the same counts, the new figures.
    await run(kv, 7, "2026-01", { unit_1: { energy: 80 }, unit_2: { energy: 50 } });
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-01"), { total: 4, finalized: 0 });
    assert.equal((await unitBillRefs(kv, 1, "2026-01"))[0].energy_consumption, 80);
    await assertMatchesScan(kv);

    // Finalized by a later run; run again (finalized bills are left alone).
    await run(kv, 7, "2026-01", { unit_1: { final: true }, unit_2: { final: true } });
    await run(kv, 7, "2026-01", { unit_1: { energy: 1 }, unit_2: { energy: 1 } });
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-01"), { total: 4, finalized: 2 });
    await assertMatchesScan(kv);

    // A payment (an update of a bill): counted once still, its summary follows.
    const entry = (await getUnitBillEntry(kv, (await unitBillRefs(kv, 1, "2026-01"))[0].id))!;
    assert.ok(
      await updateUnitBill(kv, entry, {
        ...entry.value,
        payment_status: "paid",
        override_reason: "meter replaced",
      }),
    );
    assert.equal((await unitBillRefs(kv, 1, "2026-01"))[0].status, "recalculated");
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-01"), { total: 4, finalized: 2 });
    await assertMatchesScan(kv);

    // A draft written again in another zone moves to that zone's list and counts.
    await run(kv, 8, "2026-01", { unit_2: { zone: 2 } });
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-01"), { total: 3, finalized: 2 });
    assert.deepEqual(await unitBillCounts(kv, 2, "2026-01"), { total: 2, finalized: 0 });
    await assertMatchesScan(kv);

    // Deleted: a finalized bill, then the last bill of a period with its station bill.
    let read = await readPeriodBills(kv, 7, "2026-01");
    assert.ok(await commitPeriodChange(kv, read, { remove: [read.units[0].value] }));
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-01"), { total: 2, finalized: 1 });
    read = await readPeriodBills(kv, 7, "2026-02");
    assert.ok(
      await commitPeriodChange(kv, read, { remove: [read.units[0].value], customer: "delete" }),
    );
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-02"), { total: 0, finalized: 0 });
    assert.ok(!(await billedPeriods(kv, "units")).some((p) => p.period === "2026-02"));
    assert.ok(!(await billedPeriods(kv, "stations")).some((p) => p.period === "2026-02"));
    const cust = (await readPeriodBills(kv, 9, "2026-01")).customer;
    assert.ok(await deleteCustomerBill(kv, (await getCustomerBillEntry(kv, cust.value!.id))!));
    assert.deepEqual(await listCustomerBillsOfZone(kv, 2, "2026-01"), []);
    await assertMatchesScan(kv);
  } finally {
    kv.close();
  }
});

Deno.test("concurrent runs over the same stations leave the counters exact", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Six runs at once over the same five stations, some finalizing, some moving a draft to
    // the other zone: every write is checked, so the losers read again and retry.
    await Promise.all([0, 1, 2, 3, 4, 5].map(async (r) => {
      for (let s = 1; s <= 5; s++) {
        const station = ((s + r) % 5) + 1;
        await run(kv, station, "2026-03", {
          unit_1: { energy: 10 + r, zone: r % 2 ? 2 : 1 },
          unit_2: { energy: 20 + r, final: r === 3 && station % 2 === 0 },
          [`unit_${r + 3}`]: { zone: r % 2 ? 2 : 1 },
        });
      }
    }));
    const bills = await listUnitBills(kv);
    const finalized = bills.filter((b) => b.is_finalized && b.zone_id === 1).length;
    assert.equal(finalized, 2);
    const inZone1 = bills.filter((b) => b.zone_id === 1).length;
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-03"), { total: inZone1, finalized });
    await assertMatchesScan(kv);

    // Three runs at once move every station's unit_1 to zone 2.
    const zone1 = bills.filter((b) => b.zone_id === 1 && b.unit_id !== "unit_1").length;
    await Promise.all([0, 1, 2].map(async (r) => {
      for (let s = 1; s <= 5; s++) {
        await run(kv, ((s + r) % 5) + 1, "2026-03", { unit_1: { energy: r, zone: 2 } });
      }
    }));
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-03"), { total: zone1, finalized });
    await assertMatchesScan(kv);
  } finally {
    kv.close();
  }
});

Deno.test("a store older than the zone indexes gets them built once, exact while bills are written", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  let kv = await Deno.openKv(path);
  try {
    for (let s = 1; s <= 60; s++) {
      await run(kv, s, "2026-04", { unit_1: { final: s % 3 === 0 }, unit_2: {} }, 1 + (s % 2));
    }
    await run(kv, 1, "2025-12", { unit_1: {} });
    // As a store written before the indexes: none of them, and a stale counter.
    for (const prefix of ["unit_bills_by_zone", "unit_bills_count", "customer_bills_by_zone"]) {
      for await (const e of kv.list({ prefix: [prefix] })) await kv.delete(e.key);
    }
    for await (const e of kv.list({ prefix: ["customer_bills_count"] })) await kv.delete(e.key);
    await kv.set(["unit_bills_count", 5, "2020-01", "all"], new Deno.KvU64(3n));
    await kv.delete(["bills_zone_index_built"]);
    kv.close();
    kv = await Deno.openKv(path);

    // Readers and a billing run at the same time as the build.
    const [counts] = await Promise.all([
      unitBillCounts(kv, 1, "2026-04"),
      billedPeriods(kv, "units"),
      run(kv, 61, "2026-04", { unit_1: { final: true } }, 1),
      run(kv, 2, "2026-04", { unit_1: { final: true } }, 1),
    ]);
    assert.ok(counts.total >= 60);
    assert.deepEqual(await unitBillCounts(kv, 5, "2020-01"), { total: 0, finalized: 0 });
    assert.deepEqual(
      (await billedPeriods(kv, "units")).map((p) => `${p.zone_id} ${p.period}`).sort(),
      ["1 2025-12", "1 2026-04", "2 2026-04"],
    );
    await assertMatchesScan(kv);
  } finally {
    kv.close();
    await Deno.remove(path).catch(() => {});
  }
});

Deno.test("a station of 99 units moved to another zone, with new tenants, is finalized in one commit", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const units = (o: Unit) =>
      Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`unit_${i + 1}`, o]));
    await run(kv, 7, "2026-05", units({ tenant: 1 }), 1);
    // Each bill now changes its zone index entry, counters, tenant and due-date indexes: the
    // commit stays within Deno KV's 1000 mutations.
    await run(kv, 7, "2026-05", units({ tenant: 2, zone: 2, final: true }), 2);
    assert.deepEqual(await unitBillCounts(kv, 1, "2026-05"), { total: 0, finalized: 0 });
    assert.deepEqual(await unitBillCounts(kv, 2, "2026-05"), { total: 99, finalized: 99 });
    await assertMatchesScan(kv);
  } finally {
    kv.close();
  }
});
