import assert from "node:assert/strict";
import { abbreviateK } from "./chart_numbers.ts";

Deno.test("abbreviateK() writes thousands with K and keeps smaller numbers", () => {
  assert.equal(abbreviateK(1500), "1.5K");
  assert.equal(abbreviateK(12000), "12K");
  assert.equal(abbreviateK(999), "999");
  assert.equal(abbreviateK(0.256), "0.26");
  assert.equal(abbreviateK(-2500), "-2.5K");
});
