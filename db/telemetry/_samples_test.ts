import assert from "node:assert/strict";
import {
  counterKeyIndex,
  groupBySerial,
  keyIndex,
  normalizeSamples,
  packBatch,
  unpackBatch,
  valuesObject,
} from "./_samples.ts";

const D = Date.UTC(2024, 0, 1);

Deno.test("normalizeSamples() keeps present values by key index and drops empty samples", () => {
  const out = normalizeSamples([
    { serial: "A", ts: D + 0.4, values: { total_power: 5, phase_a_pf: null as unknown as number } },
    { serial: "A", ts: D, values: {} },
  ]);
  assert.equal(out.length, 1);
  assert.equal(out[0].ts, D, "rounded to the millisecond");
  assert.deepEqual(valuesObject(out[0].vals), { total_power: 5 });
  assert.equal(out[0].vals.length, 27);
});

Deno.test("groupBySerial() orders each device's samples and merges equal instants", () => {
  const groups = groupBySerial(normalizeSamples([
    { serial: "B", ts: D + 2, values: { total_power: 2 } },
    { serial: "A", ts: D + 1, values: { total_power: 1 } },
    { serial: "B", ts: D + 1, values: { total_power: 1, total_current: 3 } },
    { serial: "B", ts: D + 1, values: { total_power: 9 } },
  ]));
  assert.deepEqual([...groups.keys()], ["B", "A"]);
  const b = groups.get("B")!;
  assert.deepEqual(b.map((s) => s.ts), [D + 1, D + 2]);
  assert.deepEqual(
    valuesObject(b[0].vals),
    { total_power: 9, total_current: 3 },
    "later overlays earlier",
  );
});

Deno.test("packBatch() and unpackBatch() carry samples through one Float64Array", () => {
  const batch = normalizeSamples([
    { serial: "A", ts: D, values: { total_power: 1.5, phase_c_returned_kwh: 0 } },
    { serial: "B", ts: D + 1, values: { total_energy_kwh: 7 } },
    { serial: "A", ts: D + 2, values: { total_current: -2 } },
  ]);
  const packed = packBatch(batch);
  assert.deepEqual(packed.serials, ["A", "B"]);
  assert.equal(packed.data.length, 3 * 29);
  assert.deepEqual(unpackBatch(packed), batch);
  assert.throws(() => unpackBatch({ serials: [], data: new Float64Array(5) }), RangeError);
});

Deno.test("keyIndex() and counterKeyIndex() accept known keys only", () => {
  assert.equal(keyIndex("total_power"), 0);
  assert.equal(counterKeyIndex("total_energy_kwh"), 3);
  assert.throws(() => keyIndex("watts"), TypeError);
  assert.throws(() => counterKeyIndex("total_power"), /not a counter key/);
});
