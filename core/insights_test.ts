import assert from "node:assert/strict";
import {
  costOpportunity,
  dailyAverage,
  efficiencyBand,
  efficiencyPercent,
  generateInsights,
  loadShifting,
  peakHours,
  phaseImbalance,
  potentialSavings,
  projectedKwh,
  trendOf,
} from "./insights.ts";

Deno.test("efficiencyPercent() is the power factor in percent, 0 when unknown", () => {
  assert.equal(efficiencyPercent(0.923), 92.3);
  assert.equal(efficiencyPercent(-0.85), 85);
  assert.equal(efficiencyPercent(null), 0);
  assert.equal(efficiencyPercent(Number.NaN), 0);
});

Deno.test("efficiencyBand() splits at 90 and 80", () => {
  assert.equal(efficiencyBand(90), "excellent");
  assert.equal(efficiencyBand(89.9), "good");
  assert.equal(efficiencyBand(80), "good");
  assert.equal(efficiencyBand(79.9), "low");
});

Deno.test("phaseImbalance() warns above a max/min ratio of 1.5 only", () => {
  assert.equal(phaseImbalance([1000, 700, 900]), false); // 1.43
  assert.equal(phaseImbalance([1500, 1000, 1200]), false); // exactly 1.5
  assert.equal(phaseImbalance([1000, 600, 900]), true); // 1.67
  assert.equal(phaseImbalance([1000, 0, 0]), false); // one phase says nothing
});

Deno.test("peakHours() are hours above 1.5 times the average", () => {
  const hourly = Array(24).fill(1);
  hourly[19] = 4;
  hourly[20] = 3;
  // sum 29, average 1.2083, threshold 1.8125
  assert.deepEqual(peakHours(hourly), [19, 20]);
  assert.deepEqual(peakHours(Array(24).fill(0)), []);
  assert.deepEqual(peakHours(Array(24).fill(2)), []);
});

Deno.test("loadShifting() needs daytime (06-22) above 3 times night (00-05)", () => {
  const hourly = Array(24).fill(0);
  for (let h = 0; h < 5; h++) hourly[h] = 1; // night 5
  for (let h = 6; h < 22; h++) hourly[h] = 1; // day 16 > 15
  assert.equal(loadShifting(hourly), true);
  for (let h = 6; h < 22; h++) hourly[h] = 0.9; // day 14.4 < 15
  assert.equal(loadShifting(hourly), false);
  hourly[5] = 100; // hour 5 is neither day nor night
  hourly[22] = 100;
  assert.equal(loadShifting(hourly), false);
});

Deno.test("costOpportunity() saves 15 % when efficiency < 85 and price > 0.1", () => {
  assert.equal(costOpportunity(80, 0.12, 10000), 1500);
  assert.equal(costOpportunity(84.9, 2, 33333), 5000);
  assert.equal(costOpportunity(85, 0.12, 10000), null);
  assert.equal(costOpportunity(80, 0.1, 10000), null);
  assert.equal(costOpportunity(0, 2, 10000), null);
});

Deno.test("potentialSavings() raises efficiency by 0.10, capped at 0.95", () => {
  assert.equal(potentialSavings(80, 10000), 1111); // 1 - 0.8/0.9
  assert.equal(potentialSavings(90, 10000), 526); // 1 - 0.9/0.95
  assert.equal(potentialSavings(95, 10000), 0);
  assert.equal(potentialSavings(0, 10000), 0);
});

Deno.test("dailyAverage() is the month so far over the days elapsed; projectedKwh() extends them", () => {
  assert.equal(dailyAverage(150, 10), 15);
  assert.equal(dailyAverage(20, 0.25), 20, "the day under way counts as one day at least");
  assert.equal(dailyAverage(0, 10), 0);
  assert.equal(projectedKwh(100, 10, 30), 300);
  assert.equal(projectedKwh(100, 10, 31), 310);
  assert.equal(projectedKwh(0, 10, 31), 0);
  assert.equal(projectedKwh(50, 0, 31), 0);
});

Deno.test("trendOf() compares with last month and falls back to up 0 %", () => {
  assert.deepEqual(trendOf(120, 100), { direction: "up", percent: 20 });
  assert.deepEqual(trendOf(80, 100), { direction: "down", percent: 20 });
  assert.deepEqual(trendOf(50, 0), { direction: "up", percent: 0 });
  assert.deepEqual(trendOf(99.7, 100), { direction: "up", percent: 0 }, "no -0 %");
});

Deno.test("generateInsights() lists the tips whose rules hold", () => {
  const hourly = Array(24).fill(0);
  for (let h = 6; h < 22; h++) hourly[h] = 1;
  hourly[19] = 5;
  const tips = generateInsights({
    efficiency: 78,
    phasePowers: [1200, 400, 800],
    hourly,
    pricePerKwh: 1.2,
    costCents: 20000,
  });
  assert.deepEqual(tips.map((t) => [t.type, t.key]), [
    ["warning", "efficiency_low"],
    ["warning", "phase_imbalance"],
    ["info", "peak_hours"],
    ["info", "load_shifting"],
    ["warning", "cost_opportunity"],
  ]);
  assert.equal(tips[2].params.hours, "19:00");
  assert.equal(tips[4].params.amount, 3000);
  const calm = generateInsights({
    efficiency: 95,
    phasePowers: [500, 500, 500],
    hourly: Array(24).fill(0),
    pricePerKwh: 1.2,
    costCents: 20000,
  });
  assert.deepEqual(calm.map((t) => t.key), ["efficiency_excellent"]);
  assert.deepEqual(
    generateInsights({ efficiency: 0, phasePowers: [], hourly: [], pricePerKwh: 0, costCents: 0 }),
    [],
  );
});
