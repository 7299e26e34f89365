/**
 * The open buckets of the SQLite store's coarser rollups. A device's hourly, daily and monthly
 * rows are written once, when the bucket closes (a sample of a later bucket is merged), not at
 * every merge: the bucket holding the device's newest sample (`latest.ts`) is "open" and its
 * row is not kept in the table (a file written before this may hold one there, as it was
 * then; it is left out and written again when the bucket closes). Its aggregate is the finer
 * rows inside it merged in time order, the finer size's open bucket last, down to the
 * 15-minute rows, which are written at every merge (at most a month of days, a day of hours
 * and an hour of quarters: a few dozen rows). Nothing acknowledged waits in memory: what a
 * merge adds is in the 15-minute rows and chunks of its transaction.
 */
import { bucketFloor, BUCKETS } from "./_buckets.ts";
import { decodeRow, emptyRow, encodeRow, keySlots, mergeRow } from "./_rollup.ts";
import type { Statements } from "./_sqlite_schema.ts";
import type { Bucket } from "./mod.ts";

/** A rollup row as queries read it: the bucket's start and its stored bytes (or a key's). */
export interface RollRow {
  start: number;
  agg: Uint8Array;
}

/** The newest sample time of a device, or null when it has none. */
export function newestOf(st: Statements, sid: number): number | null {
  const row = st.latestTsOf.get(sid) as { ts: number } | undefined;
  return row ? row.ts : null;
}

/**
 * The aggregate row of the bucket of size `BUCKETS[level]` holding `newest` (the device's
 * newest sample time): the stored 15-minute row, or for a coarser size the finer rows inside
 * it; null when there are none.
 */
export function openRow(
  st: Statements,
  sid: number,
  level: number,
  newest: number,
): Float64Array | null {
  const start = bucketFloor(BUCKETS[level], newest);
  if (level === 0) {
    const found = st.roll["15m"].get.get(sid, start) as { agg: Uint8Array } | undefined;
    return found ? decodeRow(found.agg) : null;
  }
  const finer = BUCKETS[level - 1];
  let row: Float64Array | null = null;
  const closed = st.roll[finer].range.iterate(sid, start, bucketFloor(finer, newest)) as Iterable<
    RollRow
  >;
  for (const r of closed) {
    row ??= emptyRow();
    mergeRow(row, decodeRow(r.agg));
  }
  const last = openRow(st, sid, level - 1, newest);
  if (last !== null) {
    row ??= emptyRow();
    mergeRow(row, last);
  }
  return row;
}

/**
 * Rollup rows of one size with starts in [from, to), in time order (newest first with
 * `desc`): the stored rows, and the open bucket's computed from the finer rows in place of
 * any stored one. With `k`, each row's bytes are only that key's slots (`keySlots()`);
 * `newest` is the device's newest sample time when the caller read it already.
 */
export function* rollRange(
  st: Statements,
  sid: number,
  bucket: Bucket,
  from: number,
  to: number,
  opts: { k?: number; desc?: boolean; newest?: number | null } = {},
): Generator<RollRow> {
  const { k, desc = false } = opts;
  const statements = k === undefined ? st.roll[bucket] : st.keyRoll(bucket, k);
  const stored = () =>
    (desc ? statements.rangeDesc : statements.range).iterate(sid, from, to) as Iterable<
      RollRow
    >;
  const level = BUCKETS.indexOf(bucket);
  const newest = level === 0 || to <= from
    ? null
    : (opts.newest !== undefined ? opts.newest : newestOf(st, sid));
  const open = newest === null ? null : bucketFloor(bucket, newest);
  if (newest === null || open === null || open < from || open >= to) {
    yield* stored();
    return;
  }
  const computed = openRow(st, sid, level, newest);
  let agg: Uint8Array | null = null;
  if (computed !== null) {
    agg = encodeRow(computed);
    if (k !== undefined) {
      const { offset, length } = keySlots(k);
      agg = agg.subarray(offset, offset + length);
    }
  }
  // The open bucket holds the newest sample: no stored row comes after it.
  if (desc && agg !== null) yield { start: open, agg };
  for (const r of stored()) {
    if (r.start !== open) yield r;
  }
  if (!desc && agg !== null) yield { start: open, agg };
}
