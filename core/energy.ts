/**
 * Energy from perpetual counters (kWh): the one counter-delta rule shared by every
 * telemetry backend and by billing.
 *
 * The rule, for readings (ts, value) in time order:
 * - The increase of a pair of consecutive readings is attributed to the instant of the
 *   second reading (that reading is the first to know about it).
 * - The energy over the half-open range [from, to) is the sum of the increases of the
 *   pairs whose second reading lies in [from, to). The reading just before `from` is the
 *   starting point, so a gap that spans `from` counts in the range it ends in; adjacent
 *   ranges [a, b) and [b, c) add up exactly to [a, c) for any b.
 * - An increase is `next - prev`. A drop larger than {@link RESET_TOLERANCE_KWH} is a
 *   meter reset or replacement: the new reading counts as an increase from zero. A drop
 *   within the tolerance is measurement noise: it counts as its (small, negative)
 *   difference, so it cancels when the counter recovers, and without resets the energy
 *   is exactly `last - first`.
 * - Gaps simply span: the increase across a gap is the difference across it.
 *
 * Per-bucket partial results ({@link CounterPartial}) combine to the same answer as the
 * raw readings (up to floating-point rounding of the sum), which is what lets rollups
 * answer for whole buckets and raw readings answer only at the edges.
 */

/**
 * Largest drop (kWh) taken as noise rather than as a reset: 0.01 kWh = 10 Wh. It is far
 * above float noise and the 0.01 Wh rounding of the meter's Wh counters, and far below any
 * real counter value, so a real reset is only mistaken for noise when the counter had
 * counted less than 10 Wh (the error is then at most 10 Wh).
 */
export const RESET_TOLERANCE_KWH = 0.01;

/** One reading of a counter. */
export interface CounterReading {
  /** Epoch milliseconds. */
  ts: number;
  /** Counter value, kWh. */
  value: number;
}

/**
 * What a run of consecutive readings contributes: its first and last value and the sum of
 * the increases between its own readings (not the step into its first reading).
 */
export interface CounterPartial {
  first: number;
  last: number;
  increase: number;
}

/** The increase from one reading to the next under the reset rule. */
export function counterStep(prev: number, next: number, tolerance = RESET_TOLERANCE_KWH): number {
  const diff = next - prev;
  return diff >= -tolerance ? diff : next;
}

/**
 * The energy over [from, to) from readings in time order (see the module rule). Readings
 * outside the range only matter as the starting point: the last reading before `from`.
 */
export function counterDelta(
  readings: readonly CounterReading[],
  from: number,
  to: number,
  tolerance = RESET_TOLERANCE_KWH,
): number {
  checkRange(from, to);
  checkReadings(readings);
  let prev: number | null = null;
  let total = 0;
  for (const r of readings) {
    if (r.ts >= to) break;
    if (r.ts >= from && prev !== null) total += counterStep(prev, r.value, tolerance);
    prev = r.value;
  }
  return total;
}

/** The partial of a run of values in time order, or null for no values. */
export function partialOf(
  values: readonly number[],
  tolerance = RESET_TOLERANCE_KWH,
): CounterPartial | null {
  if (values.length === 0) return null;
  let increase = 0;
  for (let i = 1; i < values.length; i++) {
    increase += counterStep(values[i - 1], values[i], tolerance);
  }
  return { first: values[0], last: values[values.length - 1], increase };
}

/**
 * Two partials of adjacent runs (`a` before `b`) as one: the step from `a`'s last reading
 * to `b`'s first reading is counted between them. Null stands for an empty run.
 */
export function combinePartials(
  a: CounterPartial | null,
  b: CounterPartial | null,
  tolerance = RESET_TOLERANCE_KWH,
): CounterPartial | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    first: a.first,
    last: b.last,
    increase: a.increase + counterStep(a.last, b.first, tolerance) + b.increase,
  };
}

/** Partials of consecutive runs, in time order, combined into one (null if all empty). */
export function foldPartials(
  parts: Iterable<CounterPartial | null>,
  tolerance = RESET_TOLERANCE_KWH,
): CounterPartial | null {
  let acc: CounterPartial | null = null;
  for (const p of parts) acc = combinePartials(acc, p, tolerance);
  return acc;
}

/**
 * The energy attributed to each of a series of consecutive buckets, given each bucket's
 * partial (in time order, empty buckets left out) and the last reading before the first
 * bucket (null if there is none): the step into a bucket's first reading counts in it.
 */
export function bucketIncreases(
  partials: readonly CounterPartial[],
  before: number | null,
  tolerance = RESET_TOLERANCE_KWH,
): number[] {
  let prev = before;
  return partials.map((p) => {
    const step = prev === null ? 0 : counterStep(prev, p.first, tolerance);
    prev = p.last;
    return step + p.increase;
  });
}

function checkRange(from: number, to: number): void {
  if (!Number.isFinite(from) || !Number.isFinite(to)) {
    throw new RangeError(`counter range needs finite instants, got from=${from}, to=${to}`);
  }
  if (to < from) throw new RangeError(`counter range ends before it starts: ${from} > ${to}`);
}

function checkReadings(readings: readonly CounterReading[]): void {
  let prevTs = -Infinity;
  for (let i = 0; i < readings.length; i++) {
    const { ts, value } = readings[i];
    if (!Number.isFinite(value)) {
      throw new TypeError(`counter reading ${i} has no finite value: ${value}`);
    }
    if (!(ts >= prevTs)) {
      throw new RangeError(`counter readings are not in time order at index ${i}: ${ts}`);
    }
    prevTs = ts;
  }
}
