import assert from "node:assert/strict";
import { powerFactorAdjustment, powerFactorOf } from "./power_factor.ts";

Deno.test("below 90 % a surcharge, from 90 % a bonus, as the reference's test values", () => {
  const cases: [number, string, number][] = [
    [85, "surcharge", 3.5],
    [80, "surcharge", 7.5],
    [50, "surcharge", 48],
    [90, "bonus", 0],
    [95, "bonus", 1.3],
    [97.83, "bonus", 2],
    [98, "bonus", 2],
    [100, "bonus", 2.5],
  ];
  for (const [fp, kind, percent] of cases) {
    assert.deepEqual(powerFactorAdjustment(fp), { factor: fp, kind, percent }, `FP ${fp}`);
  }
});

Deno.test("the surcharge is capped at 120 %; the 95 % threshold halves the top bonus", () => {
  assert.equal(powerFactorAdjustment(20).percent, 120);
  assert.equal(powerFactorAdjustment(100, 95).percent, 1.3); // 1.25 rounded to 0.1 %
  assert.deepEqual(powerFactorAdjustment(92, 95), { factor: 92, kind: "surcharge", percent: 2 });
  assert.throws(() => powerFactorAdjustment(0), RangeError);
});

Deno.test("the period's factor is active over apparent energy", () => {
  assert.equal(powerFactorOf(850, 1000), 85);
  assert.equal(powerFactorOf(1000, 1000), 100);
  assert.equal(powerFactorOf(1001, 1000), 100); // rounding of the meter: never above 100 %
  assert.equal(powerFactorOf(5, 0), null);
});
