import assert from "node:assert/strict";
import { abbreviateK, pointLabel, pointLabels } from "./chart_numbers.ts";

Deno.test("abbreviateK() writes thousands with K and keeps smaller numbers", () => {
  assert.equal(abbreviateK(1500), "1.5K");
  assert.equal(abbreviateK(12000), "12K");
  assert.equal(abbreviateK(999), "999");
  assert.equal(abbreviateK(0.256), "0.26");
  assert.equal(abbreviateK(-2500), "-2.5K");
});

Deno.test("pointLabels() names each point once, whatever steps the axis takes", () => {
  const years = ["2024", "2025", "2026"];
  assert.deepEqual(pointLabels(years, [0, 0.5, 1, 1.5, 2]), ["2024", "", "2025", "", "2026"]);
  assert.deepEqual(pointLabels(years, [0, 1, 2, 3]), ["2024", "2025", "2026", ""]);
  assert.equal(pointLabel(years, 1), "2025");
  assert.equal(pointLabel(years, null), "—");
});
