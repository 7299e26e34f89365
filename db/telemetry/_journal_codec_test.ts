import assert from "node:assert/strict";
import { packJournal, unpackJournal } from "./_journal_codec.ts";
import { KEY_COUNT, type NormSample, packBatch } from "./_samples.ts";

const T = Date.UTC(2026, 10, 1);
const vals = (f: (k: number) => number | null) => Array.from({ length: KEY_COUNT }, (_, k) => f(k));

Deno.test("a journal row gives back its batch as it came: devices, times out of order, repeats", () => {
  const batch: NormSample[] = [
    { serial: "B", ts: T + 10_000, vals: vals((k) => k === 0 ? 1234.5 : null) },
    { serial: "A", ts: T, vals: vals((k) => k < 3 ? 230.1 + k : null) },
    { serial: "B", ts: T + 10_000, vals: vals((k) => k === 3 ? 12_345.678 : null) },
    { serial: "C", ts: T - 5, vals: vals((k) => k % 2 === 0 ? 1 / 3 : -0) },
    { serial: "A", ts: T + 2.5, vals: vals(() => null).map((v, k) => k === 26 ? 7 : v) },
  ];
  const { serials, data } = packJournal(batch);
  assert.deepEqual(serials, ["B", "A", "C"]);
  const back = unpackJournal(serials, data);
  assert.equal(back.length, batch.length);
  back.forEach((s, i) => {
    assert.equal(s.serial, batch[i].serial);
    assert.ok(Object.is(s.ts, batch[i].ts));
    s.vals.forEach((v, k) => assert.ok(Object.is(v, batch[i].vals[k]), `${i}/${k}`));
  });
  assert.ok(data.length < packBatch(batch).data.byteLength / 2, "smaller than float64 rows");
});

Deno.test("a journal row of the earlier layout (float64 rows) is read too", () => {
  const batch: NormSample[] = [
    { serial: "A", ts: T, vals: vals((k) => k === 0 ? 5 : null) },
    { serial: "B", ts: T + 1, vals: vals((k) => k === 1 ? 6 : null) },
  ];
  const { serials, data } = packBatch(batch);
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  assert.deepEqual(unpackJournal(serials, bytes), batch);
});
