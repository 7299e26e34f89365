/**
 * Which estimation level (spec 001 section 9) the billing run applies to a unit without
 * readings, over real readings in the embedded time-series store: the extended range when the
 * meter has readings on both sides of the period, else the unit's history, else the zone
 * average; a unit with readings but no consumption is measured, not estimated.
 */
import { testsWith } from "./_helpers.ts";
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import type { TestApp } from "./_helpers.ts";
import { parsePeriod } from "../core/periods.ts";
import { listUnitBills, type StoredUnitBill } from "../db/bills.ts";
import { periodBounds, runBilling } from "../services/billing/mod.ts";

const test = testsWith(billingWorld, (w) => w.t.close());

const H = 3_600_000;
const DAY = 24 * H;

/** Hourly readings of a meter counting 0.5 kWh an hour, at every hour of [from, to). */
async function steadyMeter(t: TestApp, serial: string, from: number, to: number) {
  const samples = [];
  for (let ts = from; ts < to; ts += H) {
    samples.push({ serial, ts, values: { total_energy_kwh: 1000 + 0.5 * (ts - from) / H } });
  }
  t.deps.telemetry.write(samples);
  await t.deps.telemetry.flush();
}

function bounds(t: TestApp, period: string) {
  return periodBounds(parsePeriod(period), t.deps.config.utcOffsetMinutes);
}

async function billOf(t: TestApp, unit: string, period: string): Promise<StoredUnitBill> {
  const bill = (await listUnitBills(t.deps.kv)).find((b) =>
    b.unit_id === unit && b.billing_month === period
  );
  assert.ok(bill, `a bill of ${unit} for ${period}`);
  return bill;
}

/** Asserts that `b` is estimated at `level` by `method`, named so on the bill and in its details. */
function assertEstimated(b: StoredUnitBill, level: number, method: string) {
  assert.equal(b.estimation_method, method);
  assert.deepEqual(b.calculation_details.estimation, {
    level,
    method,
  });
}

test("a unit silent in the period with readings on both sides is estimated from the extended range, before its history", async (w) => {
  const jan = bounds(w.t, "2026-01"), feb = bounds(w.t, "2026-02");
  // SIM-B counts 0.5 kWh/h through January, says nothing in February, is back in March.
  await steadyMeter(w.t, "SIM-B", jan.from - H, feb.from);
  await meter(w.t, "SIM-A", "2026-01", 200);
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal((await billOf(w.t, "unit_2", "2026-01")).is_estimation, false);
  w.t.deps.telemetry.write(
    Array.from({ length: 240 }, (_, i) => ({
      serial: "SIM-B",
      ts: feb.to + i * H,
      values: { total_energy_kwh: 1000 + 0.5 * (feb.to + i * H - (jan.from - H)) / H },
    })),
  );
  await meter(w.t, "SIM-A", "2026-02", 100);

  const res = await runBilling(w.t.deps, w.zoneId, "2026-02");
  assert.equal(res.bills_estimated, 1);
  const b = await billOf(w.t, "unit_2", "2026-02");
  assert.equal(b.is_estimation, true);
  assertEstimated(b, 1, "method_1_extended_range");
  assert.equal(b.recalculation_method, null, "an automatic estimate is not a recalculation");
  assert.equal(b.is_finalized, true); // February has ended: the estimate is saved
  // The counter bridges February: 0.5 kWh/h × 672 h, not January's 372 kWh history.
  assert.equal(b.energy_consumption, 336);
  const a = await billOf(w.t, "unit_1", "2026-02");
  assert.equal(a.is_estimation, false);
  assert.equal(a.calculation_details.estimation, undefined);
});

test("a unit whose readings stopped before the period falls back to its history (level 2)", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  await meter(w.t, "SIM-A", "2026-02", 100);
  const res = await runBilling(w.t.deps, w.zoneId, "2026-02");
  assert.equal(res.bills_estimated, 1);
  const b = await billOf(w.t, "unit_2", "2026-02");
  assertEstimated(b, 2, "method_2_historical_average");
  assert.equal(b.energy_consumption, 300.5);
});

test("a unit without readings or history gets the zone average of the run (level 3)", async (w) => {
  // Readings long before the period are outside the extended window and do not count.
  const jan = bounds(w.t, "2026-01");
  await steadyMeter(w.t, "SIM-B", jan.from - 90 * DAY, jan.from - 80 * DAY);
  await meter(w.t, "SIM-A", "2026-01", 200);
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  const b = await billOf(w.t, "unit_2", "2026-01");
  assertEstimated(b, 3, "method_3_zone_average");
  assert.equal(b.energy_consumption, 200);
});

test("a meter with readings in the period but no consumption is billed as measured, 0 kWh", async (w) => {
  const jan = bounds(w.t, "2026-01");
  w.t.deps.telemetry.write([jan.from + H, jan.from + 20 * DAY].map((ts) => ({
    serial: "SIM-B",
    ts,
    values: { total_energy_kwh: 512.25 },
  })));
  await meter(w.t, "SIM-A", "2026-01", 200);
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(res.bills_estimated, 0);
  const b = await billOf(w.t, "unit_2", "2026-01");
  assert.equal(b.is_estimation, false);
  assert.equal(b.estimation_method, null);
  assert.equal(b.energy_consumption, 0);
});
