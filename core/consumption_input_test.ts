import assert from "node:assert/strict";
import { CONSUMPTION_ERRORS, parseConsumptionInput } from "./consumption_input.ts";

Deno.test("parseConsumptionInput cleans the text as the spec says", () => {
  assert.deepEqual(parseConsumptionInput("1 234,5"), { ok: true, kwh: 1234.5 });
  assert.deepEqual(parseConsumptionInput(" 250 kWh"), { ok: true, kwh: 250 });
  assert.deepEqual(parseConsumptionInput("0,75"), { ok: true, kwh: 0.75 });
  assert.deepEqual(parseConsumptionInput(".5"), { ok: true, kwh: 0.5 });
  assert.deepEqual(parseConsumptionInput(321.25), { ok: true, kwh: 321.25 });
  assert.deepEqual(parseConsumptionInput("10000"), { ok: true, kwh: 10000 });
});

Deno.test("parseConsumptionInput answers the four messages as locale keys", () => {
  const no = (key: string) => ({ ok: false, key });
  assert.deepEqual(parseConsumptionInput(""), no(CONSUMPTION_ERRORS.required));
  assert.deepEqual(parseConsumptionInput("   "), no(CONSUMPTION_ERRORS.required));
  assert.deepEqual(parseConsumptionInput(undefined), no(CONSUMPTION_ERRORS.required));
  assert.deepEqual(parseConsumptionInput("abc"), no(CONSUMPTION_ERRORS.invalidFormat));
  assert.deepEqual(parseConsumptionInput("1.2.3"), no(CONSUMPTION_ERRORS.invalidFormat));
  assert.deepEqual(parseConsumptionInput("1,5,0"), no(CONSUMPTION_ERRORS.invalidFormat));
  assert.deepEqual(parseConsumptionInput({}), no(CONSUMPTION_ERRORS.invalidFormat));
  assert.deepEqual(parseConsumptionInput(NaN), no(CONSUMPTION_ERRORS.invalidFormat));
  assert.deepEqual(parseConsumptionInput("0"), no(CONSUMPTION_ERRORS.notPositive));
  assert.deepEqual(parseConsumptionInput("0,00"), no(CONSUMPTION_ERRORS.notPositive));
  assert.deepEqual(parseConsumptionInput(0), no(CONSUMPTION_ERRORS.notPositive));
  assert.deepEqual(parseConsumptionInput("10000,01"), no(CONSUMPTION_ERRORS.tooHigh));
  assert.deepEqual(parseConsumptionInput(10001), no(CONSUMPTION_ERRORS.tooHigh));
});
