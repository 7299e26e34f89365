/**
 * The time-series store: one interface, two backends (embedded SQLite by default,
 * QuestDB when `QUESTDB_URL` is set). Devices are keyed by serial number; times are
 * epoch milliseconds; energy keys are kWh counters.
 */
import type { MeasurementKey } from "../../core/devices.ts";

/** One reading of one device: any subset of the measurement keys. */
export interface Sample {
  serial: string;
  ts: number;
  values: Partial<Record<MeasurementKey, number>>;
}

/** Bucket sizes of the chart views. */
export type Bucket = "15m" | "1h" | "1d" | "1M";

/** How values in a bucket are combined. */
export type Aggregate = "avg" | "max" | "min" | "last";

/** One point of a series. */
export interface Point {
  /** Start of the bucket (epoch ms, UTC). */
  ts: number;
  value: number;
}

/** Counters of what the store has done. */
export interface TelemetryStats {
  samplesWritten: number;
  pending: number;
  backend: "sqlite" | "questdb";
}

/** The store's interface; every backend passes the same conformance suite. */
export interface TelemetryStore {
  /** Queues samples; they are written in batches (see `flush`). */
  write(samples: Sample[]): void;
  /** Writes everything queued; after it resolves, queries see the samples. */
  flush(): Promise<void>;
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
  /** Per-bucket counter increases (energy per 15 min, hour, day, month) in [from, to). */
  counterSeries(
    serial: string,
    key: MeasurementKey,
    from: number,
    to: number,
    bucket: Bucket,
  ): Promise<Point[]>;
  /** Deletes raw samples older than the retention (rollups are kept). */
  prune(now: number): Promise<number>;
  stats(): TelemetryStats;
  close(): Promise<void>;
}
