/**
 * The read path of the SQLite store. Series come from the rollup table of the bucket
 * size, the open bucket's row from the finer ones (_sqlite_open.ts). A counter delta over [from, to) takes the largest whole buckets inside the range
 * from the rollups (months, then days, hours and 15 minutes towards the edges) and reads
 * raw samples (their chunks, _sqlite_chunks.ts) only for the less-than-15-minute edges;
 * where raw samples were pruned the edges are left out, so the range is in effect rounded down to 15 minutes at both ends.
 */
import {
  bucketIncreases,
  type CounterPartial,
  foldPartials,
  partialOf,
} from "../../core/energy.ts";
import { bucketCeil, bucketFloor, BUCKETS } from "./_buckets.ts";
import { rowAggregate, rowPartial, sliceCount, sliceLast, slicePartial } from "./_rollup.ts";
import type { Statements } from "./_sqlite_schema.ts";
import { readKey } from "./_sqlite_chunks.ts";
import { newestOf, rollRange } from "./_sqlite_open.ts";
import type { KeyRead } from "./_queue.ts";
import type { Aggregate, Bucket, CounterUsage, Point } from "./mod.ts";

/** Whole buckets overlapping [from, to): their starts run from floor(from) up to `to`. */
export function readSeries(
  st: Statements,
  sid: number,
  { k, from, to }: KeyRead,
  bucket: Bucket,
  agg: Aggregate,
): Point[] {
  const out: Point[] = [];
  if (to <= from) return out;
  for (const r of rollRange(st, sid, bucket, bucketFloor(bucket, from), to)) {
    const value = rowAggregate(r.agg, k, agg);
    if (value !== null) out.push({ ts: r.start, value });
  }
  return out;
}

/** Per-bucket counter increases of the whole buckets overlapping [from, to). */
export function readCounterSeries(
  st: Statements,
  sid: number,
  { k, from, to }: KeyRead,
  bucket: Bucket,
): Point[] {
  if (to <= from) return [];
  const start = bucketFloor(bucket, from);
  const starts: number[] = [];
  const partials: CounterPartial[] = [];
  for (const r of rollRange(st, sid, bucket, start, to)) {
    const p = rowPartial(r.agg, k);
    if (p) {
      starts.push(r.start);
      partials.push(p);
    }
  }
  const values = bucketIncreases(partials, lastBefore(st, sid, k, start));
  return values.map((value, i) => ({ ts: starts[i], value }));
}

/**
 * The counter increase over [from, to) (see core/energy.ts for the rule) and the number of
 * the key's readings in it.
 */
export function readCounterUsage(
  st: Statements,
  sid: number,
  { k, from, to }: KeyRead,
): CounterUsage {
  if (to <= from) return { delta: 0, readings: 0 };
  const parts: (CounterPartial | null)[] = [];
  const newest = newestOf(st, sid);
  const before = lastBefore(st, sid, k, from, newest);
  if (before !== null) parts.push({ first: before, last: before, increase: 0 });
  const count = { readings: 0, newest };
  collect(st, sid, k, from, to, BUCKETS.length - 1, parts, count);
  return { delta: foldPartials(parts)?.increase ?? 0, readings: count.readings };
}

/**
 * Partials of [a, b) in time order: whole buckets of size `level` and finer at the edges;
 * `count.readings` grows by the readings they hold.
 */
function collect(
  st: Statements,
  sid: number,
  k: number,
  a: number,
  b: number,
  level: number,
  out: (CounterPartial | null)[],
  count: { readings: number; newest: number | null },
): void {
  if (a >= b) return;
  if (level < 0) {
    const { values } = readKey(st, sid, k, a, b);
    out.push(partialOf(values));
    count.readings += values.length;
    return;
  }
  const bucket = BUCKETS[level];
  const whole0 = bucketCeil(bucket, a), whole1 = bucketFloor(bucket, b);
  if (whole0 >= whole1) {
    collect(st, sid, k, a, b, level - 1, out, count);
    return;
  }
  collect(st, sid, k, a, whole0, level - 1, out, count);
  for (
    const r of Array.from(rollRange(st, sid, bucket, whole0, whole1, { k, newest: count.newest }))
  ) {
    out.push(slicePartial(r.agg));
    count.readings += sliceCount(r.agg);
  }
  collect(st, sid, k, whole1, b, level - 1, out, count);
}

/**
 * The key's last value before `t`: raw samples of t's 15-minute bucket, then the rollup rows
 * before it, coarser and coarser (15 min within the hour, hours within the day, days
 * within the month, then months), so at most a few short reads.
 */
function lastBefore(
  st: Statements,
  sid: number,
  k: number,
  t: number,
  newest: number | null = newestOf(st, sid),
): number | null {
  let end = bucketFloor("15m", t);
  const raw = readKey(st, sid, k, end, t).values;
  if (raw.length > 0) return raw[raw.length - 1];
  for (let level = 0; level < BUCKETS.length; level++) {
    const coarser = BUCKETS[level + 1];
    const begin = coarser ? bucketFloor(coarser, end) : Number.MIN_SAFE_INTEGER;
    for (const r of rollRange(st, sid, BUCKETS[level], begin, end, { k, desc: true, newest })) {
      const v = sliceLast(r.agg);
      if (v !== null) return v;
    }
    end = begin;
  }
  return null;
}
