import assert from "node:assert/strict";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { partialOf } from "../../core/energy.ts";
import {
  addSample,
  decodeRow,
  emptyRow,
  encodeRow,
  mergeRow,
  rowAggregate,
  rowLast,
  rowPartial,
} from "./_rollup.ts";
import { KEY_COUNT } from "./_samples.ts";

const POWER = MEASUREMENT_KEYS.indexOf("total_power");
const ENERGY = MEASUREMENT_KEYS.indexOf("total_energy_kwh");
const VOLT = MEASUREMENT_KEYS.indexOf("phase_c_voltage");

function vals(entries: Record<number, number>): (number | null)[] {
  const out: (number | null)[] = new Array(KEY_COUNT).fill(null);
  for (const [k, v] of Object.entries(entries)) out[Number(k)] = v;
  return out;
}

Deno.test("a rollup row aggregates avg, max, min and last per key and skips absent keys", () => {
  const row = emptyRow();
  addSample(row, vals({ [POWER]: 100, [VOLT]: 230 }));
  addSample(row, vals({ [POWER]: 300 }));
  addSample(row, vals({ [POWER]: 200 }));
  const bytes = encodeRow(row);
  assert.equal(rowAggregate(bytes, POWER, "avg"), 200);
  assert.equal(rowAggregate(bytes, POWER, "max"), 300);
  assert.equal(rowAggregate(bytes, POWER, "min"), 100);
  assert.equal(rowAggregate(bytes, POWER, "last"), 200);
  assert.equal(rowAggregate(bytes, VOLT, "avg"), 230);
  assert.equal(rowAggregate(bytes, ENERGY, "avg"), null);
  assert.equal(rowLast(bytes, ENERGY), null);
});

Deno.test("a rollup row keeps the counter partial of its readings, resets included", () => {
  const values = [10, 10.5, 0.25, 1];
  const row = emptyRow();
  for (const v of values) addSample(row, vals({ [ENERGY]: v }));
  assert.deepEqual(rowPartial(encodeRow(row), ENERGY), partialOf(values));
});

Deno.test("merging consecutive rows equals one row of all their samples", () => {
  const samples = [
    vals({ [POWER]: 5, [ENERGY]: 100 }),
    vals({ [ENERGY]: 101 }),
    vals({ [POWER]: 9 }),
    vals({ [POWER]: 1, [ENERGY]: 0.5 }),
    vals({ [ENERGY]: 2 }),
  ];
  const whole = emptyRow();
  samples.forEach((s) => addSample(whole, s));
  for (let split = 0; split <= samples.length; split++) {
    const a = emptyRow(), b = emptyRow();
    samples.slice(0, split).forEach((s) => addSample(a, s));
    samples.slice(split).forEach((s) => addSample(b, s));
    mergeRow(a, b);
    assert.deepEqual(a, whole, `split at ${split}`);
  }
});

Deno.test("a stored row decodes to the same floats, whatever the byte offset", () => {
  const row = emptyRow();
  addSample(row, vals({ [POWER]: 1.5, [ENERGY]: 2.25 }));
  const shifted = new Uint8Array(row.byteLength + 3);
  shifted.set(encodeRow(row), 3);
  const view = shifted.subarray(3);
  assert.deepEqual(decodeRow(view), row);
  assert.equal(rowAggregate(view, POWER, "avg"), 1.5);
  assert.throws(() => decodeRow(new Uint8Array(8)), RangeError);
});
