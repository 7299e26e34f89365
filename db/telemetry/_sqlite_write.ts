/**
 * The write path of the SQLite store, in two steps:
 *
 * - `write()` appends a batch to the journal in one transaction, as one row of packed
 *   values (_journal_codec.ts): once it returns, the samples survive a crash of the process. Appending touches
 *   only the journal's last pages, whatever the number of devices, so it costs the same
 *   for one sample per device as for a thousand.
 * - `merge()` moves everything journaled into raw chunks (_sqlite_chunks.ts), rollups of
 *   every bucket size and the merged latest values in one transaction; only then do queries
 *   see the samples. Merging many samples at once is what makes it cheap: each device's
 *   chunk, 15-minute row and latest values are written once per merge, not once per sample,
 *   and its hourly, daily and monthly rows once, when their bucket closes (until then
 *   queries read the open bucket from the finer rows: _sqlite_open.ts).
 *
 * Samples newer than everything a device has (the usual case) take the fast path: they are
 * appended to the device's chunk being filled (kept in memory, packed and written once per
 * merge, so it is seen by queries; a new one begins at 32 samples or a new 15-minute
 * bucket) and each bucket size's open row is updated in memory: the 15-minute one written
 * once per merge, a coarser one when a later bucket begins. Late,
 * repeated or same-instant samples take the slow path: the chunks of their buckets are
 * read, the samples merged in (present values overlay stored ones, in the order they came),
 * the chunks written again and the touched buckets recomputed, 15-minute rows from the
 * chunk's samples and each coarser size from the finer rows (a bucket the newest sample
 * left behind is written too; the one holding it is not).
 * Late samples older than the raw horizon (already pruned) are dropped, since their
 * buckets can no longer be recomputed. Cached state is dropped whenever another connection
 * has written to the database (`PRAGMA data_version`), so several processes may share one
 * file; a journal left by a process that stopped is merged by the next `merge()`.
 */
import type { DatabaseSync } from "node:sqlite";
import { bucketFloor, bucketNext, BUCKETS } from "./_buckets.ts";
import { addSample, decodeRow, emptyRow, encodeRow, mergeRow } from "./_rollup.ts";
import { groupBySerial, type NormSample } from "./_samples.ts";
import { packJournal, unpackJournal } from "./_journal_codec.ts";
import type { Statements } from "./_sqlite_schema.ts";
import {
  CHUNK_SAMPLES,
  mergeInOrder,
  pruneBefore,
  type RawRow,
  readBucket,
  writeBucket,
  writeChunk,
} from "./_sqlite_chunks.ts";
import { openRow } from "./_sqlite_open.ts";
import { type Latest, loadLatest, overlayLatest, writeLatest } from "./_sqlite_latest.ts";
import type { Bucket } from "./mod.ts";

interface OpenRow {
  start: number;
  end: number;
  row: Float64Array;
  dirty: boolean;
}

/** A device's chunk being filled: its newest samples, of the 15-minute bucket `bucket`. */
interface OpenChunk {
  bucket: number;
  rows: RawRow[];
  dirty: boolean;
}

interface DeviceState extends Latest {
  sid: number;
  /** The current row of each bucket size (index as in BUCKETS). */
  open: (OpenRow | null)[];
  chunk: OpenChunk | null;
}

/** Pages of write-ahead log after which a commit checkpoints it (see the constructor). */
const WAL_CHECKPOINT_PAGES = 10_000;

/** Journals and merges batches of checked samples, and prunes raw rows. */
export class SqliteWriter {
  #devices = new Map<string, DeviceState>();
  #dataVersion = -1;
  #horizon = -Infinity;
  /**
   * What this writer journaled and has not merged yet, in the order written; null when the
   * journal may hold other rows too (another connection wrote, or a process stopped before
   * merging): the next merge then reads the journal back.
   */
  #journaled: NormSample[] | null = null;
  /** The sums of a run of samples (see `#fast()`). */
  #segment = emptyRow();
  /** Samples dropped because they were older than the raw horizon. */
  dropped = 0;

  /**
   * `checkFile` throws when the database file can no longer be written (it is called as
   * each transaction begins; see `checkFileIdentity()`).
   */
  constructor(
    private readonly db: DatabaseSync,
    private readonly st: Statements,
    private readonly checkFile: () => void = () => {},
  ) {
    // A merge rewrites a few pages per device; checkpointing the write-ahead log every
    // 10,000 pages (80 MiB) instead of SQLite's 1,000 copies each page to the database once
    // for several merges rather than once per merge. The log's file stays that size.
    db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  }

  /** Journals one batch in one transaction (durable once it returns); returns its size. */
  write(batch: readonly NormSample[]): number {
    if (batch.length === 0) return 0;
    const { serials, data } = packJournal(batch);
    this.#begin();
    try {
      this.st.appendJournal.run(JSON.stringify(serials), data);
      this.#commit();
    } catch (err) {
      this.#rollback();
      throw err;
    }
    const journaled = this.#journaled;
    if (journaled) {
      for (const s of batch) journaled.push(s);
    }
    return batch.length;
  }

  /**
   * Merges everything journaled into raw rows, rollups and latest values in one
   * transaction; returns the samples merged (those older than the horizon are dropped).
   */
  merge(): number {
    this.#begin();
    try {
      const end = (this.st.journalEnd.get() as { seq: number | null }).seq;
      let merged = 0;
      if (end !== null) {
        const samples = this.#journaled ?? this.#readJournal(end);
        for (const [serial, list] of groupBySerial(samples)) {
          const dev = this.#device(serial);
          merged += list[0].ts > dev.lastTs ? this.#fast(dev, list) : this.#slow(dev, list);
          this.#writeOpen(dev);
          writeLatest(this.st, dev.sid, dev);
        }
        this.st.clearJournal.run(end);
      }
      this.#commit();
      this.#journaled = [];
      return merged;
    } catch (err) {
      this.#rollback();
      throw err;
    }
  }

  /**
   * Deletes raw samples older than `cutoff` rounded down to 15 minutes (so each 15-minute
   * bucket is either fully raw or fully rolled up); returns the samples deleted.
   */
  prune(cutoff: number): number {
    const horizon = bucketFloor("15m", cutoff);
    this.#begin();
    try {
      if (horizon <= this.#horizon) {
        this.#commit();
        return 0;
      }
      let deleted = 0;
      for (const { sid } of this.st.allSids.all() as { sid: number }[]) {
        deleted += pruneBefore(this.st, sid, horizon);
      }
      for (const dev of this.#devices.values()) {
        if (dev.chunk && dev.chunk.bucket < horizon) dev.chunk = null;
      }
      this.st.setMeta.run("raw_horizon", horizon);
      this.#horizon = horizon;
      this.#commit();
      return deleted;
    } catch (err) {
      this.#rollback();
      throw err;
    }
  }

  /** Writes one small row in a transaction: throws when the database cannot be written. */
  probe(): void {
    this.#begin();
    try {
      this.st.setMeta.run("health_probe", Date.now());
      this.#commit();
    } catch (err) {
      this.#rollback();
      throw err;
    }
  }

  /** The journal's batches up to `end`, in the order they were written. */
  #readJournal(end: number): NormSample[] {
    const out: NormSample[] = [];
    const rows = this.st.journalRows.iterate(end) as Iterable<
      { serials: string; data: Uint8Array }
    >;
    for (const { serials, data } of rows) {
      for (const s of unpackJournal(JSON.parse(serials), data)) out.push(s);
    }
    return out;
  }

  /** Chunks, rollups and latest values of samples newer than the device's newest. */
  #fast(dev: DeviceState, samples: readonly NormSample[]): number {
    // Samples of one 15-minute bucket are summed once into `segment`, which is then merged
    // into the current row of each bucket size (one merge per size, not one sum per sample).
    const segment = this.#segment.fill(0);
    let first = 0, bucket = -Infinity;
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i];
      if (s.ts >= bucket + 900_000 || s.ts < bucket) { // another 15-minute bucket
        if (i > first) this.#addSegment(dev, samples[first].ts, segment);
        first = i;
        segment.fill(0);
        bucket = bucketFloor("15m", s.ts);
      }
      let chunk = dev.chunk;
      if (chunk === null || chunk.bucket !== bucket || chunk.rows.length >= CHUNK_SAMPLES) {
        if (chunk?.dirty) this.#writeChunk(dev.sid, chunk);
        chunk = { bucket, rows: [], dirty: false };
        dev.chunk = chunk;
      }
      chunk.rows.push(s);
      chunk.dirty = true;
      addSample(segment, s.vals);
    }
    this.#addSegment(dev, samples[first].ts, segment);
    overlayLatest(dev, samples); // after the segments: they look at the newest before
    return samples.length;
  }

  /**
   * Adds the sums of samples of one 15-minute bucket from `ts` on (newer than every sample
   * the device had) to each bucket size. A bucket left behind closes: its 15-minute row is
   * written if it changed since the last merge, a coarser row is written now, once
   * (_sqlite_open.ts).
   */
  #addSegment(dev: DeviceState, ts: number, segment: Float64Array): void {
    for (let b = 0; b < BUCKETS.length; b++) {
      let open = dev.open[b] ?? this.#openOf(dev, b);
      if (open === null || ts >= open.end) {
        if (open !== null && (b > 0 || open.dirty)) this.#upsertRow(BUCKETS[b], dev.sid, open);
        const start = bucketFloor(BUCKETS[b], ts);
        open = { start, end: bucketNext(BUCKETS[b], start), row: emptyRow(), dirty: false };
      }
      dev.open[b] = open;
      mergeRow(open.row, segment);
      open.dirty = true;
    }
  }

  /**
   * The row of the bucket of size `BUCKETS[b]` holding the device's newest sample, as stored
   * (see `openRow()`); null when the device has no sample.
   */
  #openOf(dev: DeviceState, b: number): OpenRow | null {
    if (dev.lastTs === -Infinity) return null;
    const bucket = BUCKETS[b], start = bucketFloor(bucket, dev.lastTs);
    return {
      start,
      end: bucketNext(bucket, start),
      row: openRow(this.st, dev.sid, b, dev.lastTs) ?? emptyRow(),
      dirty: false,
    };
  }

  #writeChunk(sid: number, chunk: OpenChunk): void {
    writeChunk(this.st, sid, chunk.rows);
    chunk.dirty = false;
  }

  /**
   * Merges late samples into their chunks (present values overlay stored ones) and
   * recomputes the buckets they touched; those older than the raw horizon are dropped.
   */
  #slow(dev: DeviceState, all: readonly NormSample[]): number {
    dev.open = BUCKETS.map(() => null); // rows are recomputed below; reload them after
    dev.chunk = null; // written at the end of the last merge; read again below
    const samples = all.filter((s) => s.ts >= this.#horizon);
    this.dropped += all.length - samples.length;
    const before = dev.lastTs;
    const byBucket = new Map<number, NormSample[]>();
    for (const s of samples) {
      const start = bucketFloor("15m", s.ts);
      const list = byBucket.get(start);
      if (list) list.push(s);
      else byBucket.set(start, [s]);
    }
    overlayLatest(dev, samples); // the newest sample time too
    let touched = new Set<number>(byBucket.keys());
    for (const [start, list] of byBucket) {
      const rows = mergeInOrder(readBucket(this.st, dev.sid, start), list);
      writeBucket(this.st, dev.sid, start, rows);
      const row = emptyRow();
      for (const r of rows) addSample(row, r.vals);
      this.st.roll["15m"].upsert.run(dev.sid, start, encodeRow(row));
    }
    // Coarser rows: those touched, and the one that was open if newer samples closed it, are
    // written again from the finer rows; the bucket now open is not written (_sqlite_open.ts).
    for (let b = 1; b < BUCKETS.length; b++) {
      const bucket = BUCKETS[b], finer = this.st.roll[BUCKETS[b - 1]];
      const starts = new Set<number>();
      for (const t of touched) starts.add(bucketFloor(bucket, t));
      if (before !== -Infinity) starts.add(bucketFloor(bucket, before));
      const open = bucketFloor(bucket, dev.lastTs);
      for (const start of starts) {
        if (start === open) continue;
        const row = emptyRow();
        const end = bucketNext(bucket, start);
        for (const r of finer.range.iterate(dev.sid, start, end) as Iterable<{ agg: Uint8Array }>) {
          mergeRow(row, decodeRow(r.agg));
        }
        this.st.roll[bucket].upsert.run(dev.sid, start, encodeRow(row));
      }
      touched = starts;
    }
    return samples.length;
  }

  #upsertRow(bucket: Bucket, sid: number, open: OpenRow): void {
    this.st.roll[bucket].upsert.run(sid, open.start, encodeRow(open.row));
    open.dirty = false;
  }

  #writeOpen(dev: DeviceState): void {
    if (dev.chunk?.dirty) this.#writeChunk(dev.sid, dev.chunk);
    // Only the 15-minute row: a coarser one is written when its bucket closes.
    const quarter = dev.open[0];
    if (quarter?.dirty) this.#upsertRow("15m", dev.sid, quarter);
    for (const open of dev.open) if (open) open.dirty = false;
  }

  #device(serial: string): DeviceState {
    const known = this.#devices.get(serial);
    if (known) return known;
    const found = this.st.sidOf.get(serial) as { sid: number } | undefined;
    const sid = found ? found.sid : Number(this.st.addDevice.run(serial).lastInsertRowid);
    const dev: DeviceState = {
      sid,
      ...loadLatest(this.st, sid),
      open: BUCKETS.map(() => null),
      chunk: null,
    };
    this.#devices.set(serial, dev);
    return dev;
  }

  #begin(): void {
    this.checkFile();
    this.db.exec("BEGIN IMMEDIATE");
    const version = (this.st.dataVersion.get() as { data_version: number }).data_version;
    if (version !== this.#dataVersion) {
      this.#devices.clear();
      const end = (this.st.journalEnd.get() as { seq: number | null }).seq;
      this.#journaled = end === null ? [] : null;
      const h = this.st.getMeta.get("raw_horizon") as { value: number } | undefined;
      this.#horizon = h ? h.value : -Infinity;
    }
  }

  #commit(): void {
    this.db.exec("COMMIT");
    this.#dataVersion = (this.st.dataVersion.get() as { data_version: number }).data_version;
  }

  #rollback(): void {
    if (this.db.isTransaction) this.db.exec("ROLLBACK");
    this.#devices.clear(); // in-memory rows may hold what was rolled back
    this.#journaled = null;
    this.#dataVersion = -1;
  }
}
