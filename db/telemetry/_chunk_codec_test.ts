import assert from "node:assert/strict";
import {
  chunkLength,
  type ChunkRow,
  decodeChunk,
  decodeChunkColumn,
  encodeChunk,
} from "./_chunk_codec.ts";

const T = Date.UTC(2026, 10, 1);

/** Asserts the chunk gives back every time and value bit for bit (-0, NaN included). */
function roundTrip(rows: ChunkRow[]): Uint8Array {
  const bytes = encodeChunk(rows);
  const back = decodeChunk(bytes);
  assert.equal(back.length, rows.length);
  assert.equal(chunkLength(bytes), rows.length);
  rows.forEach((r, i) => {
    assert.ok(Object.is(back[i].ts, r.ts), `time ${i}: ${r.ts} != ${back[i].ts}`);
    r.vals.forEach((v, k) => {
      assert.ok(Object.is(back[i].vals[k], v), `value ${i}/${k}: ${v} != ${back[i].vals[k]}`);
    });
  });
  const width = rows[0]?.vals.length ?? 0;
  for (let k = 0; k < width; k++) {
    const col = decodeChunkColumn(bytes, k);
    assert.deepEqual(col.ts, rows.map((r) => r.ts));
    rows.forEach((r, i) => assert.ok(Object.is(col.values[i], r.vals[k]), `column ${k} at ${i}`));
  }
  return bytes;
}

Deno.test("a chunk of meter readings gives back every value, in a few bytes per value", () => {
  const rows: ChunkRow[] = Array.from({ length: 90 }, (_, i) => ({
    ts: T + i * 10_000 + (i % 3), // every 10 s, with a few ms of jitter
    vals: [
      (12_345 + ((i * 37) % 50)) / 10, // power, one decimal (as read from text)
      (2301 + (i % 4)) / 10, // voltage
      (12_345_678 + i * 13) / 1000, // energy counter, three decimals (as read from text)
      0.97, // power factor, constant
    ],
  }));
  const bytes = roundTrip(rows);
  assert.ok(bytes.length < 90 * (1 + 4 * 2), `${bytes.length} bytes for 90 readings of 4 values`);
});

Deno.test("a chunk keeps edge values exactly: -0, NaN, infinities, tiny, huge, many decimals", () => {
  const edge = [
    -0,
    0,
    Number.NaN,
    Infinity,
    -Infinity,
    Number.MIN_VALUE,
    Number.MAX_VALUE,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    0.1 + 0.2,
    1 / 3,
    123456.123456789,
    -42.5,
  ];
  roundTrip(edge.map((v, i) => ({ ts: T + i, vals: [v, i % 2 === 0 ? v : null, 1] })));
  for (const v of edge) roundTrip([{ ts: T, vals: [v] }, { ts: T + 1, vals: [1.5] }]);
});

Deno.test("a chunk keeps absent values apart from present ones, in every pattern", () => {
  const rows: ChunkRow[] = Array.from({ length: 21 }, (_, i) => ({
    ts: T + i * 1000,
    vals: [
      null, // never present
      i % 2 === 0 ? i : null, // alternate frames
      i === 20 ? 7 : null, // only the last, past a whole byte of the bitmap
      i, // always
      i % 3 === 0 ? Number.NaN : null, // NaN where present: not the same as absent
    ],
  }));
  roundTrip(rows);
});

Deno.test("a chunk keeps times out of order, repeated, and not whole milliseconds as given", () => {
  roundTrip([T + 5000, T, T, T + 10_000, T - 3, T + 10_000].map((ts, i) => ({ ts, vals: [i] })));
  roundTrip([0, 2 ** 52, 1].map((ts) => ({ ts, vals: [1] })));
  roundTrip([T + 0.5, T + 1.25].map((ts) => ({ ts, vals: [1] })));
  roundTrip([{ ts: T, vals: [1, null] }]);
  roundTrip([]);
});

Deno.test("a chunk reads the columns it had: a later, wider read answers null for new ones", () => {
  const bytes = encodeChunk([{ ts: T, vals: [1, 2] }]);
  assert.deepEqual(decodeChunkColumn(bytes, 5), { ts: [T], values: [null] });
});

Deno.test("a damaged or unknown chunk is refused, not misread", () => {
  const bytes = encodeChunk([{ ts: T, vals: [1, 2] }, { ts: T + 1, vals: [3, 4] }]);
  assert.throws(() => decodeChunk(bytes.subarray(0, bytes.length - 1)), RangeError);
  const other = bytes.slice();
  other[0] = 99;
  assert.throws(() => decodeChunk(other), /version/);
});
