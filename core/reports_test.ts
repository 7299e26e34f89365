import assert from "node:assert/strict";
import {
  cityOf,
  currentPeriod,
  periodsOfYear,
  periodTiming,
  stationPeriods,
  zoneOfBill,
} from "./reports.ts";
import { reportStatus, type StatusFields } from "./bill_status.ts";
import type { UnitBill } from "./bill.ts";

type StatusBill = StatusFields & Pick<UnitBill, "created_at" | "updated_at">;
import { defaultZone } from "./zone.ts";

const bill = (o: Partial<StatusBill> = {}): StatusBill => ({
  is_finalized: false,
  is_estimation: false,
  override_reason: null,
  recalculation_method: null,
  created_by: null,
  created_at: "2026-02-01T00:00:00.000Z",
  updated_at: "2026-02-01T00:00:01.000Z",
  ...o,
});
const past = { future: false, current: false };

Deno.test("reportStatus() derives the report statuses of spec section 4", () => {
  assert.equal(reportStatus(bill(), { future: true, current: false }).key, "future");
  assert.equal(reportStatus(null, past).key, "not_saved");
  assert.equal(reportStatus(bill(), past).key, "not_saved");
  assert.deepEqual(reportStatus(bill({ is_estimation: true }), past), {
    key: "estimate",
    colour: "red",
  });
  assert.equal(
    reportStatus(bill({ is_estimation: true }), { future: false, current: true }).colour,
    "blue",
  );
  assert.deepEqual(reportStatus(bill({ is_finalized: true }), past), {
    key: "saved",
    colour: "green",
  });
  assert.equal(reportStatus(bill({ is_finalized: true, is_estimation: true }), past).colour, "red");
  assert.equal(
    reportStatus(bill({ is_finalized: true, created_by: "7" }), past).key,
    "partially_saved",
  );
  assert.equal(reportStatus(bill({ override_reason: "meter" }), past).key, "recalculated");
  assert.equal(
    reportStatus(bill({ is_finalized: true, recalculation_method: "manual_input" }), past).key,
    "recalculated",
  );
  // Updated more than 5 s after it was created.
  assert.equal(
    reportStatus(bill({ updated_at: "2026-02-01T00:00:05.001Z" }), past).key,
    "recalculated",
  );
});

Deno.test("periodTiming() and the period lists follow today's month", () => {
  const today = { year: 2026, month: 4, day: 10 };
  assert.deepEqual(periodTiming("2026-03-04", today), {
    future: false,
    current: true,
    past: false,
  });
  assert.deepEqual(periodTiming("2026-05", today), { future: true, current: false, past: false });
  assert.deepEqual(periodTiming("2025-12", today), { future: false, current: false, past: true });
  assert.deepEqual(periodsOfYear("bimonthly", 2026), [
    "2026-01-02",
    "2026-03-04",
    "2026-05-06",
    "2026-07-08",
    "2026-09-10",
    "2026-11-12",
  ]);
  const months = stationPeriods("monthly", today);
  assert.equal(months.length, 12);
  assert.equal(months[0], "2026-04");
  assert.equal(months[11], "2025-05");
  const pairs = stationPeriods("bimonthly", today);
  assert.equal(pairs.length, 12);
  assert.equal(pairs[0], "2026-11-12");
  assert.equal(pairs[11], "2025-01-02");
  assert.equal(currentPeriod("bimonthly", today), "2026-03-04");
});

Deno.test("zoneOfBill() prefers the bill's snapshot; cityOf() reads JSON, text or nothing", () => {
  const now = { ...defaultZone("Now"), id: 1 };
  const snap = { ...defaultZone("Then"), id: 1 };
  assert.equal(zoneOfBill(snap, now)?.name, "Then");
  assert.equal(zoneOfBill(null, now)?.name, "Now");
  assert.equal(zoneOfBill(null, null), null);
  const t = (k: string) => (k === "reports.unit_report.no_location" ? "No location" : k);
  assert.equal(cityOf(t, JSON.stringify({ city: "Monterrey" })), "Monterrey");
  assert.equal(cityOf(t, "Calle 5, Puebla"), "Calle 5, Puebla");
  assert.equal(cityOf(t, JSON.stringify({ street: "Juárez" })), "No location");
  assert.equal(cityOf(t, ""), "No location");
});
