import assert from "node:assert/strict";
import { WriteQueue } from "./_queue.ts";
import type { NormSample } from "./_samples.ts";

const sample = (ts: number): NormSample => ({ serial: "q", ts, vals: [ts] });
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("WriteQueue hands a full batch to the sink without waiting for the timer", async () => {
  const batches: number[][] = [];
  const q = new WriteQueue((b) => void batches.push(b.map((s) => s.ts)), {
    batchSize: 3,
    intervalMs: 60_000,
  });
  q.push([sample(1), sample(2)]);
  await wait(5);
  assert.deepEqual(batches, [], "below the batch size nothing is written yet");
  q.push([sample(3)]);
  await wait(5);
  assert.deepEqual(batches, [[1, 2, 3]]);
  assert.equal(q.pending, 0);
  await q.close();
});

Deno.test("WriteQueue counts the samples of items that hold several", async () => {
  const batches: number[][][] = [];
  const q = new WriteQueue<number[]>((b) => void batches.push(b), {
    batchSize: 5,
    intervalMs: 60_000,
  }, (item) => item.length);
  q.push([[1, 2], [3]]);
  assert.equal(q.pending, 3, "samples, not items");
  await wait(5);
  assert.deepEqual(batches, [], "below the batch size nothing is written yet");
  q.push([[4, 5]]);
  await wait(5);
  assert.deepEqual(batches, [[[1, 2], [3], [4, 5]]]);
  assert.equal(q.pending, 0);
  await q.close();
});

Deno.test("WriteQueue writes waiting samples after the interval", async () => {
  const batches: number[][] = [];
  const q = new WriteQueue((b) => void batches.push(b.map((s) => s.ts)), {
    batchSize: 100,
    intervalMs: 10,
  });
  q.push([sample(1)]);
  assert.equal(q.pending, 1);
  await wait(40);
  assert.deepEqual(batches, [[1]]);
  await q.close();
});

Deno.test("WriteQueue.flush() rejects with the sink's error and the queue goes on", async () => {
  let fail = true;
  const written: number[] = [];
  const q = new WriteQueue((b) => {
    if (fail) throw new Error("disk full");
    b.forEach((s) => written.push(s.ts));
  }, { batchSize: 100, intervalMs: 60_000 });
  q.push([sample(1)]);
  await assert.rejects(q.flush(), /disk full/);
  fail = false;
  q.push([sample(2)]);
  await q.flush();
  assert.deepEqual(written, [2], "the failed batch is dropped, later ones are written");
  await q.close();
});

Deno.test("WriteQueue reports errors of unawaited writes to onError, or at the next flush()", async () => {
  const seen: unknown[] = [];
  const q1 = new WriteQueue(() => {
    throw new Error("boom");
  }, { batchSize: 1, intervalMs: 60_000, onError: (e) => seen.push(e) });
  q1.push([sample(1)]);
  await wait(5);
  assert.equal(seen.length, 1);
  assert.match(String(seen[0]), /boom/);
  await q1.close();

  const q2 = new WriteQueue(() => {
    throw new Error("later");
  }, { batchSize: 1, intervalMs: 60_000 });
  q2.push([sample(1)]);
  await wait(5);
  await assert.rejects(q2.flush(), /later/);
  await q2.flush(); // reported once
  await q2.close();
});

Deno.test("WriteQueue refuses samples after close() and checks its options", async () => {
  const q = new WriteQueue(() => {}, { batchSize: 10, intervalMs: 10 });
  await q.close();
  assert.throws(() => q.push([sample(1)]), /closed/);
  assert.throws(() => new WriteQueue(() => {}, { batchSize: 0, intervalMs: 10 }), RangeError);
  assert.throws(() => new WriteQueue(() => {}, { batchSize: 1, intervalMs: -1 }), RangeError);
});

Deno.test("WriteQueue counts every batch its sink failed, whoever started the write", async () => {
  let fail = true;
  const q = new WriteQueue(() => {
    if (fail) throw new Error("disk full");
  }, { batchSize: 1, intervalMs: 60_000, onError: () => {} });
  q.push([sample(1)]); // size-triggered: nobody awaits it
  await wait(5);
  assert.equal(q.failures, 1);
  q.push([sample(2)]);
  await assert.rejects(q.flush(), /disk full/);
  assert.equal(q.failures, 2);
  fail = false;
  q.push([sample(3)]);
  await q.flush();
  assert.equal(q.failures, 2);
  await q.close();
});
