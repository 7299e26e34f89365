/**
 * Raw samples of the SQLite store as chunks: rows of up to {@link CHUNK_SAMPLES} samples of
 * one device within one UTC 15-minute bucket, keyed by their first sample's time (`chunks`
 * table, packed by _chunk_codec.ts). The chunk being filled is packed again at each merge, so
 * its size bounds that work; 32 samples keep the header's share of a chunk small. A bucket's samples are its chunk's plus, in a
 * file written before chunks, the earlier layout's rows of that bucket (`raw` table), which
 * are read beside it until a rewrite of the bucket moves them into the chunk or a prune
 * deletes them. Chunks align with the 15-minute rollups, so pruning whole chunks keeps "each
 * bucket fully raw or fully rolled up" (see _sqlite_write.ts).
 */
import type { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { bucketFloor, bucketNext } from "./_buckets.ts";
import { type ChunkRow, decodeChunk, decodeChunkColumn, encodeChunk } from "./_chunk_codec.ts";
import { KEY_COUNT } from "./_samples.ts";
import type { Statements } from "./_sqlite_schema.ts";

/** A raw sample: its time and values by key index (null where absent). */
export type RawRow = ChunkRow;

/** Whether the earlier layout may still hold rows (once it holds none, it never will again). */
const legacySeen = new WeakMap<Statements, boolean>();

function mayHaveLegacy(st: Statements): boolean {
  if (legacySeen.get(st) === false) return false;
  const any = st.anyRaw.get() !== undefined;
  legacySeen.set(st, any);
  return any;
}

/** The most samples a chunk holds. */
export const CHUNK_SAMPLES = 32;

/** The samples of the 15-minute bucket starting at `start`, in time order. */
export function readBucket(st: Statements, sid: number, start: number): RawRow[] {
  const end = bucketNext("15m", start);
  const rows: RawRow[] = [];
  for (const { data } of st.chunkRange.iterate(sid, start, end) as Iterable<{ data: Uint8Array }>) {
    for (const r of decodeChunk(data)) rows.push(r);
  }
  if (!mayHaveLegacy(st)) return rows;
  const legacy: RawRow[] = [];
  for (const r of st.rawRange.iterate(sid, start, bucketNext("15m", start))) {
    legacy.push({ ts: (r as { ts: number }).ts, vals: legacyVals(r as Record<string, unknown>) });
  }
  return legacy.length === 0 ? rows : mergeInOrder(legacy, rows);
}

/**
 * Writes every sample of the 15-minute bucket starting at `start` (time order, distinct
 * instants, as `readBucket()` read them and more) as its chunks, in place of those it had;
 * rows of the earlier layout in the bucket, now in the chunks, are deleted.
 */
export function writeBucket(
  st: Statements,
  sid: number,
  start: number,
  rows: readonly RawRow[],
): void {
  const end = bucketNext("15m", start);
  st.deleteChunkRange.run(sid, start, end);
  for (let i = 0; i < rows.length; i += CHUNK_SAMPLES) {
    writeChunk(st, sid, rows.slice(i, i + CHUNK_SAMPLES));
  }
  if (mayHaveLegacy(st)) st.deleteRawRange.run(sid, start, end);
}

/**
 * Writes one chunk: samples of one 15-minute bucket (time order, distinct instants, at most
 * {@link CHUNK_SAMPLES}) newer than those of the bucket's other chunks, or a chunk being
 * filled again with more.
 */
export function writeChunk(st: Statements, sid: number, rows: readonly RawRow[]): void {
  st.upsertChunk.run(sid, rows[0].ts, rows.length, encodeChunk(rows));
}

/** One key's present values in [from, to), with their times, in time order. */
export function readKey(
  st: Statements,
  sid: number,
  k: number,
  from: number,
  to: number,
): { ts: number[]; values: number[] } {
  const ts: number[] = [], values: number[] = [];
  if (to <= from) return { ts, values };
  const chunks = st.chunkRange.iterate(sid, bucketFloor("15m", from), to) as Iterable<
    { data: Uint8Array }
  >;
  for (const { data } of chunks) {
    const col = decodeChunkColumn(data, k);
    for (let i = 0; i < col.ts.length; i++) {
      const t = col.ts[i], v = col.values[i];
      if (v !== null && t >= from && t < to) {
        ts.push(t);
        values.push(v);
      }
    }
  }
  if (!mayHaveLegacy(st)) return { ts, values };
  const old = st.keyRange(k).all(sid, from, to) as { ts: number; v: number }[];
  if (old.length === 0) return { ts, values };
  const merged = mergeInOrder(
    old.map((r) => ({ ts: r.ts, vals: [r.v] })),
    ts.map((t, i) => ({ ts: t, vals: [values[i]] })),
  );
  return { ts: merged.map((r) => r.ts), values: merged.map((r) => r.vals[0] as number) };
}

/** Deletes the samples of buckets before `horizon` (a 15-minute boundary); answers how many. */
export function pruneBefore(st: Statements, sid: number, horizon: number): number {
  let deleted = Number((st.prunedChunkSamples.get(sid, horizon) as { n: number }).n);
  st.pruneChunks.run(sid, horizon);
  if (mayHaveLegacy(st)) deleted += Number(st.pruneRaw.run(sid, horizon).changes);
  return deleted;
}

/** Two lists in time order as one; at the same instant the second's values overlay. */
export function mergeInOrder(a: readonly RawRow[], b: readonly RawRow[]): RawRow[] {
  const out: RawRow[] = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i].ts < b[j].ts)) out.push(a[i++]);
    else if (i >= a.length || b[j].ts < a[i].ts) out.push(b[j++]);
    else {
      const vals = a[i++].vals.slice();
      b[j++].vals.forEach((v, k) => {
        if (v !== null) vals[k] = v;
      });
      out.push({ ts: b[j - 1].ts, vals });
    }
  }
  return out;
}

/** Values by key index of a row of the earlier layout. */
function legacyVals(r: Record<string, unknown>): (number | null)[] {
  const out: (number | null)[] = new Array(KEY_COUNT);
  for (let k = 0; k < KEY_COUNT; k++) {
    const v = r[MEASUREMENT_KEYS[k]];
    out[k] = typeof v === "number" ? v : null;
  }
  return out;
}

/**
 * Every raw sample of a device (chunks and rows of the earlier layout) in [from, to), in time
 * order, straight from a database connection (one opened read-only will do): for checking
 * what a file holds, e.g. after a crash.
 */
export function storedSamples(
  db: DatabaseSync,
  serial: string,
  from = Number.MIN_SAFE_INTEGER,
  to = Number.MAX_SAFE_INTEGER,
): RawRow[] {
  const device = db.prepare("SELECT sid FROM devices WHERE serial = ?").get(serial) as
    | { sid: number }
    | undefined;
  if (!device) return [];
  const inRange = (r: RawRow) => r.ts >= from && r.ts < to;
  const chunks = db.prepare(
    "SELECT data FROM chunks WHERE sid = ? AND start >= ? AND start < ? ORDER BY start",
  ).all(device.sid, bucketFloor("15m", Math.max(from, 0)), to) as { data: Uint8Array }[];
  const packed = chunks.flatMap(({ data }) => decodeChunk(data).filter(inRange));
  const legacy = (db.prepare("SELECT * FROM raw WHERE sid = ? AND ts >= ? AND ts < ? ORDER BY ts")
    .all(device.sid, from, to) as Record<string, unknown>[])
    .map((r) => ({ ts: r.ts as number, vals: legacyVals(r) }));
  return mergeInOrder(legacy, packed);
}
