/**
 * The write path of the SQLite store: raw rows, rollups of every bucket size maintained on
 * write, the merged latest values, and pruning of raw rows.
 *
 * Samples newer than everything a device has (the usual case) take the fast path: raw
 * inserts, and each bucket size's current row is updated in memory and written once per
 * batch. Late, repeated or same-instant samples take the slow path: raw rows are merged
 * (present values overlay stored ones) and the touched buckets are recomputed, 15-minute
 * rows from raw rows and each coarser size from the finer rows. Samples older than the
 * raw horizon (already pruned) are dropped, since their buckets can no longer be
 * recomputed. Cached state is dropped whenever another connection has written to the
 * database (`PRAGMA data_version`), so several processes may share one file.
 */
import type { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { bucketFloor, bucketNext, BUCKETS } from "./_buckets.ts";
import { addSample, decodeRow, emptyRow, encodeRow, mergeRow } from "./_rollup.ts";
import { groupBySerial, KEY_COUNT, type NormSample } from "./_samples.ts";
import { RAW_ROWS_PER_INSERT, type Statements } from "./_sqlite_schema.ts";
import type { Bucket } from "./mod.ts";

interface OpenRow {
  start: number;
  end: number;
  row: Float64Array;
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
}

/** Writes batches of checked samples and prunes raw rows. */
export class SqliteWriter {
  #devices = new Map<string, DeviceState>();
  #dataVersion = -1;
  #horizon = -Infinity;
  /** Samples dropped because they were older than the raw horizon. */
  dropped = 0;

  constructor(
    private readonly db: DatabaseSync,
    private readonly st: Statements,
  ) {}

  /** Writes one batch in one transaction; returns the samples stored. */
  write(batch: readonly NormSample[]): number {
    if (batch.length === 0) return 0;
    let stored = 0;
    this.#begin();
    try {
      for (const [serial, samples] of groupBySerial(batch)) {
        const dev = this.#device(serial);
        stored += samples[0].ts > dev.lastTs ? this.#fast(dev, samples) : this.#slow(dev, samples);
        this.#writeOpen(dev);
        this.#writeLatest(dev);
      }
      this.#commit();
    } catch (err) {
      this.#rollback();
      throw err;
    }
    return stored;
  }

  /**
   * Deletes raw rows older than `cutoff` rounded down to 15 minutes (so each 15-minute
   * bucket is either fully raw or fully rolled up); returns the rows deleted.
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
        deleted += Number(this.st.pruneRaw.run(sid, horizon).changes);
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

  #fast(dev: DeviceState, samples: readonly NormSample[]): number {
    this.#insertRaw(dev.sid, samples);
    for (const s of samples) {
      for (let b = 0; b < BUCKETS.length; b++) {
        let open = dev.open[b];
        if (open === null || s.ts >= open.end || s.ts < open.start) {
          if (open?.dirty) this.#upsertRow(BUCKETS[b], dev.sid, open);
          open = this.#loadRow(BUCKETS[b], dev.sid, s.ts);
          dev.open[b] = open;
        }
        addSample(open.row, s.vals);
        open.dirty = true;
      }
      this.#overlayLatest(dev, s);
    }
    dev.lastTs = samples[samples.length - 1].ts;
    return samples.length;
  }

  /** Inserts new raw rows, many per call. */
  #insertRaw(sid: number, samples: readonly NormSample[]): void {
    const whole = samples.length - (samples.length % RAW_ROWS_PER_INSERT);
    const params: (number | null)[] = new Array(RAW_ROWS_PER_INSERT * (2 + KEY_COUNT));
    for (let i = 0; i < whole; i += RAW_ROWS_PER_INSERT) {
      let p = 0;
      for (let j = i; j < i + RAW_ROWS_PER_INSERT; j++) {
        const s = samples[j];
        params[p++] = sid;
        params[p++] = s.ts;
        for (let k = 0; k < KEY_COUNT; k++) params[p++] = s.vals[k];
      }
      this.st.insertRawMany.run(...params);
    }
    for (let j = whole; j < samples.length; j++) {
      this.st.insertRaw.run(sid, samples[j].ts, ...samples[j].vals);
    }
  }

  #slow(dev: DeviceState, samples: readonly NormSample[]): number {
    dev.open = BUCKETS.map(() => null); // rows are recomputed below; reload them after
    let touched = new Set<number>();
    let stored = 0;
    for (const s of samples) {
      if (s.ts < this.#horizon) {
        this.dropped++;
        continue;
      }
      this.st.mergeRaw.run(dev.sid, s.ts, ...s.vals);
      touched.add(bucketFloor("15m", s.ts));
      if (s.ts > dev.lastTs) dev.lastTs = s.ts;
      this.#overlayLatest(dev, s);
      stored++;
    }
    for (const start of touched) {
      const row = emptyRow();
      const end = bucketNext("15m", start);
      for (const r of this.st.rawRange.iterate(dev.sid, start, end)) addSample(row, rawVals(r));
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
    return stored;
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
    dev.open.forEach((open, b) => {
      if (open?.dirty) this.#upsertRow(BUCKETS[b], dev.sid, open);
    });
  }

  /** Each key keeps the value of its newest sample, whatever the order samples came in. */
  #overlayLatest(dev: DeviceState, s: NormSample): void {
    for (let k = 0; k < KEY_COUNT; k++) {
      const v = s.vals[k];
      if (v === null) continue;
      const key = MEASUREMENT_KEYS[k];
      const seen = dev.latestTs[key];
      if (seen === undefined || s.ts >= seen) {
        dev.latest[key] = v;
        dev.latestTs[key] = s.ts;
        dev.latestDirty = true;
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
    };
    this.#devices.set(serial, dev);
    return dev;
  }

  #begin(): void {
    this.db.exec("BEGIN IMMEDIATE");
    const version = (this.st.dataVersion.get() as { data_version: number }).data_version;
    if (version !== this.#dataVersion) {
      this.#devices.clear();
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
    this.#dataVersion = -1;
  }
}

/** Values by key index of a raw row read back. */
export function rawVals(r: Record<string, unknown>): (number | null)[] {
  const out: (number | null)[] = new Array(KEY_COUNT);
  for (let k = 0; k < KEY_COUNT; k++) {
    const v = r[MEASUREMENT_KEYS[k]];
    out[k] = typeof v === "number" ? v : null;
  }
  return out;
}
