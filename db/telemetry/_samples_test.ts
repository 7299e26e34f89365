import assert from "node:assert/strict";
import {
  counterKeyIndex,
  groupBySerial,
  keyIndex,
  normalizeSamples,
  packBatch,
  packedLength,
  packSamples,
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

Deno.test("packSamples() checks and packs samples as normalizeSamples() then packBatch() do", () => {
  const samples = [
    { serial: "A", ts: D + 0.4, values: { total_power: 1.5, phase_c_returned_kwh: 0 } },
    { serial: "B", ts: D + 1, values: {} },
    {
      serial: "C",
      ts: D + 1,
      values: { total_energy_kwh: 7, total_pf: null as unknown as number },
    },
    { serial: "A", ts: D + 2, values: { total_current: -2 } },
  ];
  const packed = packSamples(samples);
  assert.deepEqual(packed, packBatch(normalizeSamples(samples)));
  assert.deepEqual(packed.serials, ["A", "C"], "a sample without values is left out");
  assert.equal(packedLength(packed), 3);
  assert.equal(packSamples([{ serial: "A", ts: D, values: {} }]).data.length, 0);
  for (
    const bad of [
      [{ serial: "", ts: D, values: { total_power: 1 } }],
      [{ serial: "A", ts: Number.NaN, values: { total_power: 1 } }],
      [{ serial: "A", ts: D, values: { watts: 1 } }],
      [{ serial: "A", ts: D, values: { total_power: Infinity } }],
      [{ serial: "A", ts: D, values: null }],
    ]
  ) {
    const bads = bad as unknown as Parameters<typeof packSamples>[0];
    const expected = (() => {
      try {
        normalizeSamples(bads);
      } catch (e) {
        return e as Error;
      }
    })()!;
    assert.throws(
      () => packSamples([samples[0], ...bads]),
      (e: Error) =>
        e.constructor === expected.constructor &&
        e.message === expected.message.replace("sample 0", "sample 1"),
    );
  }
});

Deno.test("keyIndex() and counterKeyIndex() accept known keys only", () => {
  assert.equal(keyIndex("total_power"), 0);
  assert.equal(counterKeyIndex("total_energy_kwh"), 3);
  assert.throws(() => keyIndex("watts"), TypeError);
  assert.throws(() => counterKeyIndex("total_power"), /not a counter key/);
});
