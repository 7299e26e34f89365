import assert from "node:assert/strict";
import {
  bucketIncreases,
  combinePartials,
  counterDelta,
  type CounterPartial,
  type CounterReading,
  counterStep,
  foldPartials,
  partialOf,
  RESET_TOLERANCE_KWH,
} from "./energy.ts";
import { prng as random } from "../ingest/sim.ts";

const MIN = 60_000;
const T0 = Date.UTC(2024, 0, 1);

/** Readings every minute from T0 with the given values. */
function minutely(values: number[]): CounterReading[] {
  return values.map((value, i) => ({ ts: T0 + i * MIN, value }));
}

function close(actual: number, expected: number, message?: string): void {
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${message ?? "value"}: expected ${expected}, got ${actual}`,
  );
}

/** A counter with growth, gaps, resets and jitter, as a meter could report it. */
function messyReadings(seed: number, n: number): CounterReading[] {
  const rnd = random(seed);
  const out: CounterReading[] = [];
  let ts = T0;
  let value = 1000 * rnd();
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.03) value = 0.5 * rnd(); // reset or replacement
    else if (r < 0.1) value -= 0.003 * rnd(); // jitter within the tolerance
    else value += 0.2 * rnd();
    ts += rnd() < 0.05 ? 6 * 3_600_000 * rnd() : 10_000; // occasional gap
    out.push({ ts: Math.round(ts), value });
  }
  return out;
}

Deno.test("counterStep() counts growth, tolerates jitter and restarts from zero after a reset", () => {
  assert.equal(counterStep(10, 12.5), 2.5);
  assert.equal(counterStep(10, 10), 0);
  close(counterStep(10, 9.9999), -0.0001, "jitter counts as its small difference");
  close(
    counterStep(10, 10 - RESET_TOLERANCE_KWH),
    -RESET_TOLERANCE_KWH,
    "the tolerance is inclusive",
  );
  assert.equal(counterStep(10, 9.9), 9.9, "a drop beyond the tolerance is a reset");
  assert.equal(counterStep(2500, 0.3), 0.3);
  assert.equal(counterStep(10, 9.5, 1), -0.5, "a custom tolerance applies");
});

Deno.test("counterDelta() of a monotonic counter is last minus first in the range", () => {
  const readings = minutely([100, 100.5, 101.25, 102, 103.5]);
  assert.equal(counterDelta(readings, T0, T0 + 5 * MIN), 3.5);
  assert.equal(
    counterDelta(readings, T0 + MIN, T0 + 3 * MIN),
    1.25,
    "pairs ending at +1 and +2 min",
  );
});

Deno.test("counterDelta() counts the reading after a reset as an increase from zero", () => {
  const readings = minutely([100, 101, 0.4, 1.4, 2]);
  // 1 + 0.4 (new meter from zero) + 1 + 0.6
  close(counterDelta(readings, T0, T0 + 5 * MIN), 3);
  const replaced = minutely([5000, 5001, 12.5, 13]);
  close(counterDelta(replaced, T0, T0 + 4 * MIN), 1 + 12.5 + 0.5, "replacement meter with a count");
});

Deno.test("counterDelta() lets tiny negative jitter cancel instead of counting a reset", () => {
  const readings = minutely([10, 10.2, 10.1999, 10.2, 10.7]);
  close(counterDelta(readings, T0, T0 + 5 * MIN), 0.7);
  const endsInDip = minutely([10, 10.5, 10.4999]);
  close(counterDelta(endsInDip, T0, T0 + 3 * MIN), 0.4999, "a range ending in a dip");
});

Deno.test("counterDelta() spans gaps with the difference across them", () => {
  const readings: CounterReading[] = [
    { ts: T0, value: 50 },
    { ts: T0 + MIN, value: 51 },
    { ts: T0 + 3 * 86_400_000, value: 80 }, // three days offline
    { ts: T0 + 3 * 86_400_000 + MIN, value: 81 },
  ];
  assert.equal(counterDelta(readings, T0, T0 + 4 * 86_400_000), 31);
  assert.equal(
    counterDelta(readings, T0 + 86_400_000, T0 + 4 * 86_400_000),
    30,
    "a gap spanning `from` counts in the range it ends in",
  );
});

Deno.test("counterDelta() is zero for no readings, one reading and empty ranges", () => {
  assert.equal(counterDelta([], T0, T0 + MIN), 0);
  assert.equal(counterDelta([{ ts: T0, value: 7 }], T0 - MIN, T0 + MIN), 0);
  assert.equal(counterDelta(minutely([1, 2, 3]), T0 + MIN, T0 + MIN), 0, "from equal to to");
});

Deno.test("counterDelta() ignores readings outside the range except the one before it", () => {
  const readings = minutely([1, 2, 4, 8, 16, 32]);
  // range [+2 min, +4 min): pairs ending at +2 (2 -> 4) and +3 (4 -> 8)
  assert.equal(counterDelta(readings, T0 + 2 * MIN, T0 + 4 * MIN), 6);
  assert.equal(counterDelta(readings, T0 + 2 * MIN + 1, T0 + 4 * MIN + 1), 12, "pairs at +3, +4");
  assert.equal(counterDelta(readings, T0 - 10 * MIN, T0 - MIN), 0, "range before all readings");
  assert.equal(counterDelta(readings, T0 + 10 * MIN, T0 + 20 * MIN), 0, "range after all readings");
  assert.equal(counterDelta(readings, T0 - 10 * MIN, T0 + MIN), 0, "first reading has no pair");
});

Deno.test("counterDelta() of adjacent ranges adds up for any split point", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const readings = messyReadings(seed, 400);
    const a = readings[0].ts - 5_000;
    const c = readings[readings.length - 1].ts + 5_000;
    const whole = counterDelta(readings, a, c);
    const rnd = random(seed * 7);
    for (let i = 0; i < 25; i++) {
      const atReading = readings[Math.floor(rnd() * readings.length)].ts;
      const anywhere = a + Math.floor(rnd() * (c - a));
      for (const b of [atReading, anywhere]) {
        close(counterDelta(readings, a, b) + counterDelta(readings, b, c), whole, `seed ${seed}`);
      }
    }
  }
});

Deno.test("partials of chunks fold to the same energy as the raw readings", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const readings = messyReadings(seed, 300);
    const values = readings.map((r) => r.value);
    const rnd = random(seed * 13);
    const parts: (CounterPartial | null)[] = [];
    let i = 0;
    while (i < values.length) {
      const n = Math.floor(rnd() * 40);
      parts.push(partialOf(values.slice(i, i + n)));
      i += n;
    }
    const folded = foldPartials(parts);
    assert.ok(folded);
    const first = readings[0].ts;
    const last = readings[readings.length - 1].ts;
    close(folded.increase, counterDelta(readings, first, last + 1), `seed ${seed}`);
    assert.equal(folded.first, values[0]);
    assert.equal(folded.last, values[values.length - 1]);
  }
});

Deno.test("combinePartials() counts the step between runs, including a reset", () => {
  const a = partialOf([10, 11, 12]);
  const b = partialOf([0.5, 1]);
  assert.deepEqual(combinePartials(a, b), { first: 10, last: 1, increase: 2 + 0.5 + 0.5 });
  assert.equal(combinePartials(null, b), b);
  assert.equal(combinePartials(a, null), a);
  assert.equal(combinePartials(null, null), null);
  assert.equal(partialOf([]), null);
  assert.deepEqual(partialOf([3]), { first: 3, last: 3, increase: 0 });
  assert.equal(foldPartials([]), null);
});

Deno.test("bucketIncreases() puts the step into a bucket's first reading in that bucket", () => {
  const buckets = [
    partialOf([10, 12]),
    partialOf([15, 15.5]),
    partialOf([0.2, 1]),
  ] as CounterPartial[];
  assert.deepEqual(bucketIncreases(buckets, 9), [1 + 2, 3 + 0.5, 0.2 + 0.8]);
  assert.deepEqual(bucketIncreases(buckets, null), [2, 3 + 0.5, 0.2 + 0.8], "no reading before");
  assert.deepEqual(bucketIncreases([], 5), []);
});

Deno.test("bucket increases add up to counterDelta over the same buckets", () => {
  const readings = messyReadings(42, 2000);
  const size = 15 * MIN;
  const from = Math.floor(readings[200].ts / size) * size;
  const to = Math.floor(readings[1800].ts / size) * size;
  const partials: CounterPartial[] = [];
  for (let start = from; start < to; start += size) {
    const p = partialOf(
      readings.filter((r) => r.ts >= start && r.ts < start + size).map((r) => r.value),
    );
    if (p) partials.push(p);
  }
  const before = readings.filter((r) => r.ts < from).at(-1)!.value;
  const sum = bucketIncreases(partials, before).reduce((s, x) => s + x, 0);
  close(sum, counterDelta(readings, from, to));
});

Deno.test("counterDelta() rejects unordered readings, bad values and inverted ranges", () => {
  assert.throws(() => counterDelta(minutely([1, 2]).reverse(), T0, T0 + MIN), RangeError);
  assert.throws(() => counterDelta([{ ts: T0, value: NaN }], T0, T0 + MIN), TypeError);
  assert.throws(() => counterDelta(minutely([1, 2]), T0 + MIN, T0), /ends before it starts/);
  assert.throws(() => counterDelta(minutely([1, 2]), NaN, T0), RangeError);
});
