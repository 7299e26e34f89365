import assert from "node:assert/strict";
import { decimalOrEmpty, parseDecimalInput } from "./decimal_input.ts";
import { parseConsumptionInput } from "./consumption_input.ts";

Deno.test("parseDecimalInput() reads a decimal comma as the consumption input does", () => {
  const cases: [unknown, number][] = [
    ["1,5", 1.5],
    ["1.5", 1.5],
    [" 2 ,25 ", 2.25],
    ["0,793", 0.793],
    ["1,5000", 1.5],
    [",5", 0.5],
    ["10", 10],
    ["-1,5", -1.5],
    [3.25, 3.25],
  ];
  for (const [raw, value] of cases) {
    assert.deepEqual(parseDecimalInput(raw), { ok: true, value }, String(raw));
    if (typeof raw === "string" && value > 0) {
      const kwh = parseConsumptionInput(raw);
      assert.deepEqual(kwh, { ok: true, kwh: value }, `consumption reads ${raw} alike`);
    }
  }
});

Deno.test("parseDecimalInput() refuses what it cannot read as one number, never reinterprets", () => {
  for (
    const raw of [
      "1.234,56",
      "1,500",
      "12,345",
      "1,5,0",
      "12abc",
      "$5",
      "1 5x",
      "--1",
      ".",
      "NaN",
      Infinity,
    ]
  ) {
    assert.deepEqual(parseDecimalInput(raw), { ok: false, reason: "invalid" }, String(raw));
  }
  for (const raw of ["", "   ", null, undefined]) {
    assert.deepEqual(parseDecimalInput(raw), { ok: false, reason: "empty" }, String(raw));
  }
});

Deno.test("decimalOrEmpty() leaves an empty field out and marks junk as NaN", () => {
  assert.equal(decimalOrEmpty(""), undefined);
  assert.equal(decimalOrEmpty("1,5"), 1.5);
  assert.ok(Number.isNaN(decimalOrEmpty("1.2.3")!));
});
