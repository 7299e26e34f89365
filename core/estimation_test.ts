import assert from "node:assert/strict";
import {
  averageEnergy,
  extendedRangeEnergy,
  extendedWindow,
  hourlyCoverage,
  levelOf,
  previousPeriods,
} from "./estimation.ts";
import { parsePeriod } from "./periods.ts";

const H = 3_600_000;
const DAY = 24 * H;
const period = { from: Date.UTC(2026, 1, 1, 6), to: Date.UTC(2026, 2, 1, 6) }; // 28 days

Deno.test("estimation levels are numbered in the order of spec 001 section 9", () => {
  assert.equal(levelOf("method_1_extended_range"), 1);
  assert.equal(levelOf("method_2_historical_average"), 2);
  assert.equal(levelOf("method_3_zone_average"), 3);
  assert.equal(levelOf("manual_input"), 4);
});

Deno.test("extendedWindow() adds one period length on each side and never reaches past now", () => {
  assert.deepEqual(extendedWindow(period, period.to + 100 * DAY), {
    from: period.from - 28 * DAY,
    to: period.to + 28 * DAY,
  });
  assert.deepEqual(extendedWindow(period, period.to + 3 * H), {
    from: period.from - 28 * DAY,
    to: period.to + 3 * H,
  });
});

Deno.test("hourlyCoverage() spans the hours with readings and tells the sides of the period", () => {
  const window = extendedWindow(period, Infinity);
  const before = [{ ts: period.from - 5 * DAY }, { ts: period.from - H }];
  const after = [{ ts: period.to }, { ts: period.to + 2 * DAY }];
  assert.deepEqual(hourlyCoverage([...before, ...after], window, period), {
    first: period.from - 5 * DAY,
    last: period.to + 2 * DAY + H,
    before: true,
    after: true,
  });
  const onlyBefore = hourlyCoverage(before, window, period)!;
  assert.equal(onlyBefore.before && !onlyBefore.after, true);
  assert.equal(hourlyCoverage([{ ts: window.from - H }], window, period), null);
});

Deno.test("extendedRangeEnergy() scales the window's delta to the period", () => {
  const window = extendedWindow(period, Infinity);
  const points = [{ ts: period.from - 10 * DAY }, { ts: period.to + 10 * DAY - H }];
  const coverage = hourlyCoverage(points, window, period);
  // 48 days covered, 96 kWh counted: 2 kWh a day, 56 kWh in 28 days.
  assert.equal(extendedRangeEnergy(period, coverage, 96, { bothSides: true }), 56);
  const short = hourlyCoverage([{ ts: period.to + 2 * H }], window, period);
  assert.equal(extendedRangeEnergy(period, short, 1), null, "less than a day of readings");
  const oneSide = hourlyCoverage(
    [{ ts: period.from - 10 * DAY }, { ts: period.from - H }],
    window,
    period,
  );
  assert.equal(extendedRangeEnergy(period, oneSide, 20), 56, "recalculation takes one side");
  assert.equal(extendedRangeEnergy(period, oneSide, 20, { bothSides: true }), null);
  assert.equal(extendedRangeEnergy(period, null, 0), null);
});

Deno.test("averageEnergy() rounds to Wh and previousPeriods() steps back across years", () => {
  assert.equal(averageEnergy([100, 200.0015, 50]), 116.667);
  assert.equal(averageEnergy([]), null);
  assert.deepEqual(previousPeriods(parsePeriod("2026-02"), 3), ["2026-01", "2025-12", "2025-11"]);
  assert.deepEqual(previousPeriods(parsePeriod("2026-01-02"), 2), ["2025-11-12", "2025-09-10"]);
});
