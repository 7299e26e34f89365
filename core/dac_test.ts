import assert from "node:assert/strict";
import { dacHistoryLength, highConsumption } from "./dac.ts";
import { parsePeriod } from "./periods.ts";

const month = parsePeriod("2026-06");

Deno.test("a unit crosses the DAC limit when its 12-month average goes over it", () => {
  // Eleven months of 240 kWh and this month's 250: average 240.83, under tariff 1's 250.
  const calm = highConsumption(month, 250, Array(11).fill(240), 250)!;
  assert.deepEqual(calm, { average_kwh: 240.83, months: 12, limit_kwh: 250, exceeded: false });
  // A hot month of 380 kWh lifts the average to 251.67: over the limit.
  const hot = highConsumption(month, 380, Array(11).fill(240), 250)!;
  assert.equal(hot.average_kwh, 251.67);
  assert.equal(hot.exceeded, true);
  // A single high month is not above the limit on its own average when the year was low.
  assert.equal(highConsumption(month, 600, Array(11).fill(100), 250)!.exceeded, false);
});

Deno.test("the average reads 12 months: older periods and missing bills do not count", () => {
  assert.equal(dacHistoryLength(month), 11);
  assert.equal(dacHistoryLength(parsePeriod("2026-05-06")), 5);
  const r = highConsumption(month, 300, [null, 300, ...Array(15).fill(10_000)], 250)!;
  assert.equal(r.months, 11); // 10 older bills in the window, one missing
  const bi = highConsumption(parsePeriod("2026-05-06"), 600, [500, null, 500, 500, 500], 250)!;
  assert.deepEqual(bi, { average_kwh: 260, months: 10, limit_kwh: 250, exceeded: true });
  assert.equal(highConsumption(month, 1000, [], 0), null);
});
