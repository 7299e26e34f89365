/**
 * The time-series store: one interface, two backends (embedded SQLite by default,
 * QuestDB when `QUESTDB_URL` is set). Devices are keyed by serial number; times are
 * epoch milliseconds; energy keys are kWh counters.
 */
import type { MeasurementKey } from "../../core/devices.ts";
import type { Bucket } from "./_buckets.ts";

/** One reading of one device: any subset of the measurement keys. */
export interface Sample {
  serial: string;
  ts: number;
  values: Partial<Record<MeasurementKey, number>>;
}

/** How values in a bucket are combined. */
export type Aggregate = "avg" | "max" | "min" | "last";

/** One point of a series. */
export interface Point {
  /** Start of the bucket (epoch ms, UTC). */
  ts: number;
  value: number;
}

/** A counter's energy over a range and how many readings of it the range holds. */
export interface CounterUsage {
  /** kWh, as `counterDelta` answers. */
  delta: number;
  readings: number;
}

/** Counters of what the store has done. */
export interface TelemetryStats {
  samplesWritten: number;
  pending: number;
  /**
   * Batches the backend failed to take so far (their samples are lost); stores that cannot
   * tell leave it out.
   */
  failedWrites?: number;
  /** Batches written so far and the seconds they took altogether (stores that cannot tell leave them out). */
  batches?: number;
  batchSeconds?: number;
  backend: "sqlite" | "questdb";
}

/** The store's interface; every backend passes the same conformance suite. */
export interface TelemetryStore {
  /** Queues samples; they are written in batches (see `flush`). */
  write(samples: Sample[]): void;
  /** Writes everything queued; after it resolves, queries see the samples. */
  flush(): Promise<void>;
  /**
   * Writes everything queued so that it survives a crash of this process; queries may see
   * it only after `flush()`. Cheaper than `flush()` where the two differ; stores without it
   * are made durable by `flush()` (see {@link syncStore}).
   */
  sync?(): Promise<void>;
  /** The latest value of every key of a device (keys merged from recent samples), or null. */
  latest(serial: string): Promise<Sample | null>;
  /** A bucketed series of one key in [from, to). */
  series(
    serial: string,
    key: MeasurementKey,
    from: number,
    to: number,
    bucket: Bucket,
    agg: Aggregate,
  ): Promise<Point[]>;
  /**
   * Energy counted between two instants: the increase of a counter key over [from, to)
   * (each increase between consecutive readings counts at its later reading, so adjacent
   * ranges add up; rule in core/energy.ts), correct across counter resets (a drop starts a
   * new count from zero) and gaps.
   */
  counterDelta(serial: string, key: MeasurementKey, from: number, to: number): Promise<number>;
  /**
   * The counter's energy over [from, to) as `counterDelta` answers it, with the number of
   * the key's readings in the range (0: the meter said nothing then), in one query. Stores
   * without it are read through {@link counterUsageOf}.
   */
  counterUsage?(
    serial: string,
    key: MeasurementKey,
    from: number,
    to: number,
  ): Promise<CounterUsage>;
  /** Per-bucket counter increases (energy per 15 min, hour, day, month) in [from, to). */
  counterSeries(
    serial: string,
    key: MeasurementKey,
    from: number,
    to: number,
    bucket: Bucket,
  ): Promise<Point[]>;
  /**
   * Resolves when the store can be read and written now; rejects with a
   * {@link TelemetryUnavailableError} saying what failed (its file vanished or was replaced,
   * its last write failed, the server does not answer). Stores without it are checked by a
   * read (see {@link checkStore}).
   */
  check?(): Promise<void>;
  /** Deletes raw samples older than the retention (rollups are kept). */
  prune(now: number): Promise<number>;
  stats(): TelemetryStats;
  close(): Promise<void>;
}

/**
 * A store that cannot answer now: its backend failed (a damaged, deleted or replaced file, a
 * full disk, a server that does not answer). Queries and checks reject with it, so that
 * callers can tell "no data" from "data unavailable"; the backend's error is its `cause`.
 */
export class TelemetryUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TelemetryUnavailableError";
  }
}

/**
 * A store refused at opening: its file is damaged or not a telemetry store, or it is missing
 * while the portal's records say one existed. The message says what to do.
 */
export class TelemetryStoreRefused extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TelemetryStoreRefused";
  }
}

/** Checks a store: its `check()`, or for a store without it one read. */
export async function checkStore(store: TelemetryStore): Promise<void> {
  if (store.check) return await store.check();
  try {
    await store.latest("");
  } catch (e) {
    throw e instanceof TelemetryUnavailableError
      ? e
      : new TelemetryUnavailableError(`the telemetry store failed a read: ${messageOf(e)}`, {
        cause: e,
      });
  }
}

/** The message of an error, or the thing thrown as text. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Makes what was written to a store durable: its `sync()`, or `flush()` without one. */
export function syncStore(store: TelemetryStore): Promise<void> {
  return store.sync ? store.sync() : store.flush();
}

/**
 * {@link TelemetryStore.counterUsage} of a store, or for a store without it the same answer
 * from `counterDelta` and an hourly series (whose points each hold at least one reading;
 * the count is then the hours with readings, which only matters as zero or not).
 */
export async function counterUsageOf(
  store: TelemetryStore,
  serial: string,
  key: MeasurementKey,
  from: number,
  to: number,
): Promise<CounterUsage> {
  if (store.counterUsage) return await store.counterUsage(serial, key, from, to);
  const points = await store.series(serial, key, from, to, "1h", "last");
  const readings = points.filter((p) => p.ts >= from).length;
  const delta = readings === 0 ? 0 : await store.counterDelta(serial, key, from, to);
  return { delta, readings };
}

/** The stores' UTC buckets: the start of the bucket holding an instant, the next start. */
export { type Bucket, bucketCeil, bucketFloor } from "./_buckets.ts";
