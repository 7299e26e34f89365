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
 *   chunk, rollup rows and latest values are written once per merge, not once per sample.
 *
 * Samples newer than everything a device has (the usual case) take the fast path: they are
 * appended to the device's chunk being filled (kept in memory, packed and written once per
 * merge, so it is seen by queries; a new one begins at 32 samples or a new 15-minute
 * bucket) and each
 * bucket size's current row is updated in memory and written once per merge. Late,
 * repeated or same-instant samples take the slow path: the chunks of their buckets are
 * read, the samples merged in (present values overlay stored ones, in the order they came),
 * the chunks written again and the touched buckets recomputed, 15-minute rows from the
 * chunk's samples and each coarser size from the finer rows.
 * Late samples older than the raw horizon (already pruned) are dropped, since their
 * buckets can no longer be recomputed. Cached state is dropped whenever another connection
 * has written to the database (`PRAGMA data_version`), so several processes may share one
 * file; a journal left by a process that stopped is merged by the next `merge()`.
 */
import type { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { bucketFloor, bucketNext, BUCKETS } from "./_buckets.ts";
import { addSample, decodeRow, emptyRow, encodeRow, mergeRow } from "./_rollup.ts";
import { groupBySerial, KEY_COUNT, type NormSample } from "./_samples.ts";
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

interface DeviceState {
  sid: number;
  /** Newest sample time stored (-Infinity for none). */
  lastTs: number;
  /** The newest value of each key, and the time of its sample. */
  latest: Record<string, number>;
  latestTs: Record<string, number>;
  latestDirty: boolean;
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
          this.#writeLatest(dev);
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
    this.#overlayLatest(dev, samples);
    dev.lastTs = samples[samples.length - 1].ts;
    return samples.length;
  }

  /** Adds the sums of samples of one 15-minute bucket from `ts` on to each bucket size. */
  #addSegment(dev: DeviceState, ts: number, segment: Float64Array): void {
    for (let b = 0; b < BUCKETS.length; b++) {
      let open = dev.open[b];
      if (open === null || ts >= open.end || ts < open.start) {
        if (open?.dirty) this.#upsertRow(BUCKETS[b], dev.sid, open);
        open = this.#loadRow(BUCKETS[b], dev.sid, ts);
        dev.open[b] = open;
      }
      mergeRow(open.row, segment);
      open.dirty = true;
    }
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
    const byBucket = new Map<number, NormSample[]>();
    for (const s of samples) {
      const start = bucketFloor("15m", s.ts);
      const list = byBucket.get(start);
      if (list) list.push(s);
      else byBucket.set(start, [s]);
      if (s.ts > dev.lastTs) dev.lastTs = s.ts;
    }
    this.#overlayLatest(dev, samples);
    let touched = new Set<number>(byBucket.keys());
    for (const [start, list] of byBucket) {
      const rows = mergeInOrder(readBucket(this.st, dev.sid, start), list);
      writeBucket(this.st, dev.sid, start, rows);
      const row = emptyRow();
      for (const r of rows) addSample(row, r.vals);
      this.st.roll["15m"].upsert.run(dev.sid, start, encodeRow(row));
    }
    for (let b = 1; b < BUCKETS.length; b++) {
      const bucket = BUCKETS[b], finer = this.st.roll[BUCKETS[b - 1]];
      const starts = new Set<number>();
      for (const t of touched) starts.add(bucketFloor(bucket, t));
      for (const start of starts) {
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

  #loadRow(bucket: Bucket, sid: number, ts: number): OpenRow {
    const start = bucketFloor(bucket, ts);
    const found = this.st.roll[bucket].get.get(sid, start) as { agg: Uint8Array } | undefined;
    return {
      start,
      end: bucketNext(bucket, start),
      row: found ? decodeRow(found.agg) : emptyRow(),
      dirty: false,
    };
  }

  #upsertRow(bucket: Bucket, sid: number, open: OpenRow): void {
    this.st.roll[bucket].upsert.run(sid, open.start, encodeRow(open.row));
    open.dirty = false;
  }

  #writeOpen(dev: DeviceState): void {
    if (dev.chunk?.dirty) this.#writeChunk(dev.sid, dev.chunk);
    dev.open.forEach((open, b) => {
      if (open?.dirty) this.#upsertRow(BUCKETS[b], dev.sid, open);
    });
  }

  /**
   * Each key keeps the value of its newest sample, whatever the order samples came in.
   * `samples` are one device's, in time order with distinct instants: read from the newest
   * back, each key's first value found is the newest of them.
   */
  #overlayLatest(dev: DeviceState, samples: readonly NormSample[]): void {
    let found = 0;
    const done: boolean[] = new Array(KEY_COUNT).fill(false);
    for (let i = samples.length - 1; i >= 0 && found < KEY_COUNT; i--) {
      const s = samples[i];
      for (let k = 0; k < KEY_COUNT; k++) {
        const v = s.vals[k];
        if (v === null || done[k]) continue;
        done[k] = true;
        found++;
        const key = MEASUREMENT_KEYS[k];
        const seen = dev.latestTs[key];
        if (seen === undefined || s.ts >= seen) {
          dev.latest[key] = v;
          dev.latestTs[key] = s.ts;
          dev.latestDirty = true;
        }
      }
    }
  }

  #writeLatest(dev: DeviceState): void {
    if (!dev.latestDirty) return;
    const { sid, lastTs, latest, latestTs } = dev;
    this.st.upsertLatest.run(sid, lastTs, JSON.stringify(latest), JSON.stringify(latestTs));
    dev.latestDirty = false;
  }

  #device(serial: string): DeviceState {
    const known = this.#devices.get(serial);
    if (known) return known;
    const found = this.st.sidOf.get(serial) as { sid: number } | undefined;
    const sid = found ? found.sid : Number(this.st.addDevice.run(serial).lastInsertRowid);
    const latest = this.st.latestOf.get(sid) as
      | { ts: number; data: string; key_ts: string }
      | undefined;
    const dev: DeviceState = {
      sid,
      lastTs: latest ? latest.ts : -Infinity,
      latest: latest ? JSON.parse(latest.data) : {},
      latestTs: latest ? JSON.parse(latest.key_ts) : {},
      latestDirty: false,
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
