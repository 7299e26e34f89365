/**
 * The billing run (services/billing/) over real readings in the embedded time-series store:
 * exact cents, idempotent reruns, finalized bills left alone, estimations, notifications.
 */
import { testsWith } from "./_helpers.ts";
import assert from "node:assert/strict";
import { billingWorld, meter, stationCounts, unitCounts } from "./_billing_world.ts";
import { parsePeriod } from "../core/periods.ts";
import { billingRunSchema } from "../core/billing_input.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { Refusal } from "../services/refusal.ts";
import { listNotifications } from "../db/notifications.ts";
import { runBillCli } from "../scripts/bill.ts";
import { dueDateAfter } from "../core/payment.ts";
import { periodBounds, previousPeriods, runBilling } from "../services/billing/mod.ts";

const test = testsWith(billingWorld, (w) => w.t.close());

test("runBilling() bills each unit and the station in exact cents from the counters", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  // A reading after the period's end does not count in it.
  const { to } = periodBounds(parsePeriod("2026-01"), w.t.deps.config.utcOffsetMinutes);
  w.t.deps.telemetry.write([{
    serial: "SIM-A",
    ts: to + 1000,
    values: { total_energy_kwh: 1250 },
  }]);
  await w.t.deps.telemetry.flush();
  // Billed on Friday 2026-02-13 (local), after the period ended.
  w.t.deps.now = () => Date.parse("2026-02-13T18:00:00Z");
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.partialDeepStrictEqual(res, {
    failures: [],
    stations_processed: 1,
    bills_created: 2,
    customer_bills_created: 1,
    total_bills_created: 3,
    total_bills_updated: 0,
  });
  const bills = await listUnitBills(w.t.deps.kv, w.stationId);
  const [a, b] = ["unit_1", "unit_2"].map((u) => bills.find((x) => x.unit_id === u)!);
  assert.partialDeepStrictEqual(a, {
    // 150 × 1 + 50 × 2 = 250.00; tax 16 % of 290.00 = 46.40.
    energy_consumption: 200,
    energy_cost: 25000,
    base_tariff: 4000,
    tax_cost: 4640,
    total_cost: 33640,
    billing_month: "2026-01",
    billing_period: null,
    is_estimation: false,
    is_finalized: true,
    finalized_at: "2026-02-13T18:00:00.000Z",
    payment_status: "pending",
    // Ten business days after Friday 2026-02-13 is Friday 2026-02-27 (no holiday between).
    payment_due_date: "2026-02-27",
    tenant_id: w.tenants[0],
  });
  // 150 + 130 × 2 + 20.5 × 3 = 471.50; tax 16 % of 511.50 = 81.84.
  assert.partialDeepStrictEqual(b, { energy_cost: 47150, tax_cost: 8184, total_cost: 59334 });
  const [cust] = await listCustomerBills(w.t.deps.kv, w.stationId);
  // Commission 10 % of 721.50 = 72.15; fee 2 × 25; tax 16 % of 122.15 = 19.544 → 19.54.
  assert.partialDeepStrictEqual(cust, {
    commission_amount: 7215,
    fee_amount: 5000,
    tax_amount: 1954,
    total_amount: 14169,
    energy_consumption: 500.5,
  });
  assert.deepEqual(cust.calculation_details, {
    commission_base: 72150,
    commission_rate: 10,
    unit_count: 2,
    fee_per_unit: 2500,
    tax_rate: 16,
  });
});

test("runBilling() run twice updates the same bills and never duplicates them", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  // While January is open, runs write drafts and update them.
  w.t.deps.now = () => Date.parse("2026-01-20T18:00:00Z");
  const draft = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(draft.finalized, false);
  const first = await listUnitBills(w.t.deps.kv);
  assert.ok(first.every((b) => !b.is_finalized && b.payment_due_date === null));
  const again = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(again.total_bills_created, 0);
  assert.equal(again.total_bills_updated, 3);
  assert.equal(again.bills_updated, 2);
  const second = await listUnitBills(w.t.deps.kv);
  assert.equal(second.length, 2);
  assert.deepEqual(second.map((b) => b.id), first.map((b) => b.id));
  assert.equal((await listCustomerBills(w.t.deps.kv)).length, 1);
  // Once January has ended the drafts are finalized, keeping their ids.
  w.t.deps.now = () => Date.parse("2026-02-03T18:00:00Z");
  const final = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(final.finalized, true);
  assert.deepEqual(final.unit_bills, unitCounts({ updated: 2 }));
  const third = await listUnitBills(w.t.deps.kv);
  assert.deepEqual(third.map((b) => b.id), first.map((b) => b.id));
  assert.ok(third.every((b) => b.is_finalized && b.payment_due_date === "2026-02-17"));
  assert.ok((await listCustomerBills(w.t.deps.kv)).every((b) => b.is_finalized));
});

test("runBilling() on an ended period finalizes; a rerun leaves the bills alone and counts them skipped", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  const first = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(first.finalized, true);
  const before = await listUnitBills(w.t.deps.kv);
  assert.ok(before.every((b) => b.is_finalized && b.payment_status === "pending"));
  await meter(w.t, "SIM-A", "2026-01", 100); // the readings change after finalizing
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(res.bills_skipped, 2);
  assert.equal(res.bills_updated, 0);
  assert.deepEqual(res.unit_bills, unitCounts({ skipped: 2 }));
  assert.deepEqual(res.station_bills, stationCounts({ skipped: 1 }));
  assert.deepEqual(await listUnitBills(w.t.deps.kv), before);
});

test("runBilling() estimates a unit without readings: zone average, then its own history", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(res.bills_estimated, 1);
  let b = (await listUnitBills(w.t.deps.kv)).find((x) => x.unit_id === "unit_2")!;
  assert.equal(b.is_estimation, true);
  assert.equal(b.estimation_method, "method_3_zone_average");
  assert.equal(b.energy_consumption, 200);
  assert.equal(b.total_cost, 33640);

  // Measured in 2026-02, silent in 2026-03: the unit's own history (2026-02) is used.
  await meter(w.t, "SIM-A", "2026-02", 100);
  await meter(w.t, "SIM-B", "2026-02", 300.5);
  await runBilling(w.t.deps, w.zoneId, "2026-02");
  await meter(w.t, "SIM-A", "2026-03", 50);
  await runBilling(w.t.deps, w.zoneId, "2026-03");
  b = (await listUnitBills(w.t.deps.kv)).find((x) =>
    x.unit_id === "unit_2" && x.billing_month === "2026-03"
  )!;
  assert.equal(b.estimation_method, "method_2_historical_average");
  assert.equal(b.energy_consumption, 300.5); // estimated 2026-01 is not history
  assert.equal(b.total_cost, 59334);
});

test("runBilling() sends bill_created to the unit's tenant once", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  const notes = await listNotifications(w.t.deps.kv, w.tenants[0], "all", 50);
  const bills = notes.filter((n) => n.type === "bill_created");
  assert.equal(bills.length, 1);
  assert.equal(bills[0].params?.amount, 33640);
  assert.equal(bills[0].params?.currency, "MXN");
  assert.equal(bills[0].params?.period, "2026-01");
});

test("a billing run's input refuses a bad period and a bad zone id; runBilling() an unknown zone, writing nothing", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  for (
    const [zone, period, field] of [
      [w.zoneId, "2026-13", "period"],
      [w.zoneId, "2026-02-03", "period"],
      [w.zoneId, 202601, "period"],
      ["abc", "2026-01", "zone_id"],
      [-1, "2026-01", "zone_id"],
    ] as const
  ) {
    const input = billingRunSchema.safeParse({ zone_id: zone, period });
    assert.deepEqual(input.error?.issues.map((i) => i.path[0]), [field], `${zone} ${period}`);
  }
  const digits = billingRunSchema.parse({ zone_id: String(w.zoneId), period: "2026-01" });
  assert.equal(digits.zone_id, w.zoneId);
  await assert.rejects(
    () => runBilling(w.t.deps, 9999, "2026-01"),
    (e) => e instanceof Refusal && e.kind === "not_found",
  );
  assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
  assert.deepEqual(await listCustomerBills(w.t.deps.kv), []);
});

test("runBilling() with dryRun computes the counts and writes nothing", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01", { dryRun: true });
  assert.equal(res.total_bills_created, 3);
  assert.equal(res.dry_run, true);
  assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
  assert.deepEqual(await listNotifications(w.t.deps.kv, w.tenants[0], "all", 50), []);
});

Deno.test("dueDateAfter() and previousPeriods() follow the calendar across years and holidays", () => {
  // Thursday 12 Nov 2026: Monday 16 Nov (Revolution day) does not count.
  assert.equal(dueDateAfter({ year: 2026, month: 11, day: 12 }), "2026-11-27");
  // Christmas and New Year's Day do not count.
  assert.equal(dueDateAfter({ year: 2026, month: 12, day: 24 }), "2027-01-11");
  assert.deepEqual(previousPeriods(parsePeriod("2026-02"), 3), ["2026-01", "2025-12", "2025-11"]);
  assert.deepEqual(previousPeriods(parsePeriod("2026-03-04"), 3), [
    "2026-01-02",
    "2025-11-12",
    "2025-09-10",
  ]);
});

test("deno task bill prints progress and a summary, and exits non-zero on bad input", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  const lines: string[] = [];
  const errors: string[] = [];
  const run = (args: string[]) =>
    runBillCli(w.t.deps, args, (l) => lines.push(l), (l) => errors.push(l));
  assert.equal(await run(["--zone", String(w.zoneId), "--period", "2026-01", "--dry-run"]), 0);
  assert.ok(lines.some((l) => /1\/1 station \d+ Norte: ok/.test(l)));
  assert.ok(lines.some((l) => l.startsWith("dry run")));
  assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
  lines.length = 0;
  assert.equal(await run(["--all", "--period", "2026-01", "--json"]), 0);
  const result = JSON.parse(lines.join("\n"));
  assert.equal(result.total_bills_created, 3);
  assert.equal(result.bills_estimated, 1);
  assert.equal(await run(["--zone", "9999", "--period", "2026-01"]), 2);
  assert.equal(await run(["--zone", String(w.zoneId), "--period", "2026-13"]), 2);
  assert.equal(await run(["--period", "2026-01"]), 2);
  assert.equal(await run(["--zone", "1", "--all", "--period", "2026-01"]), 2);
  assert.equal(errors.length, 4);
});
