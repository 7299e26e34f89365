import assert from "node:assert/strict";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, previewShape } from "./chart_preview.ts";

Deno.test("a sketch scales as the islands' uPlot charts do: from 0 to 1.1 × the highest value", () => {
  const s = previewShape([0, 5, 10], "line")!;
  // 10 is at 1/1.1 of the height: 200 − 200/1.1 = 18.2 from the top.
  assert.equal(s.path, `M0 ${PREVIEW_HEIGHT}L300 109.1L${PREVIEW_WIDTH} 18.2`);
  assert.equal(s.zeroY, PREVIEW_HEIGHT);
});

Deno.test("an area closes down to zero; bars are 70 % of their slot, centred", () => {
  assert.equal(previewShape([1, 1], "area")!.path, "M0 18.2L600 18.2L600 200L0 200z");
  // Two slots of 300: each bar 210 wide from 45 into its slot.
  assert.equal(
    previewShape([2, 1], "bars")!.path,
    "M45 18.2h210v181.8h-210zM345 109.1h210v90.9h-210z",
  );
});

Deno.test("a negative value moves zero up, its bar hangs below it", () => {
  const s = previewShape([-1, 1], "bars")!;
  // Range −1.1 … 1.1: zero in the middle.
  assert.equal(s.zeroY, 100);
  assert.ok(s.path.startsWith("M45 100h210v90.9"), s.path);
});

Deno.test("nothing to sketch: no values, all zero; junk values count as zero", () => {
  assert.equal(previewShape([], "area"), null);
  assert.equal(previewShape([0, 0, 0], "bars"), null);
  assert.equal(previewShape([NaN, 2], "line")!.path, "M0 200L600 18.2");
});
