/**
 * The write queue of a store: `push()` queues checked samples; they are handed to the
 * sink in one batch when the queue reaches `batchSize` samples, every `intervalMs` while
 * samples wait, or when `flush()` is called. Batches reach the sink one at a time.
 * `QueuedStore` is what every backend shares: the queue, closing, and the checking of
 * queries before the backend reads.
 */
import type { MeasurementKey } from "../../core/devices.ts";
import {
  checkAggregate,
  checkBucket,
  checkRange,
  counterKeyIndex,
  keyIndex,
  normalizeSamples,
  type NormSample,
} from "./_samples.ts";
import {
  type Aggregate,
  type Bucket,
  type CounterUsage,
  messageOf,
  type Point,
  type Sample,
  type TelemetryStats,
  type TelemetryStore,
  TelemetryUnavailableError,
} from "./mod.ts";

/** How a queue batches. */
interface QueueOptions {
  /** Samples that trigger a flush right away. */
  batchSize: number;
  /** Longest wait (ms) before queued samples are flushed. */
  intervalMs: number;
  /**
   * Receives the error of a flush that nobody awaited (size or timer triggered); the
   * batch is dropped. Without it, the error is thrown by the next `flush()`.
   */
  onError?: (error: unknown) => void;
}

/**
 * A batching write queue in front of a sink. Its items are samples, or parts of several
 * samples each (`weigh` tells how many: the sizes count samples).
 */
export class WriteQueue<T = NormSample> {
  #pending: T[] = [];
  /** Samples in `#pending`. */
  #count = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> = Promise.resolve();
  #deferredError: unknown = undefined;
  #closed = false;
  #failures = 0;
  #batches = 0;
  #batchSeconds = 0;

  constructor(
    private readonly sink: (batch: T[]) => void | Promise<void>,
    private readonly options: QueueOptions,
    private readonly weigh: (item: T) => number = () => 1,
  ) {
    if (!(options.batchSize >= 1)) {
      throw new RangeError(`batchSize must be at least 1: ${options.batchSize}`);
    }
    if (!(options.intervalMs >= 0)) {
      throw new RangeError(`intervalMs must be >= 0: ${options.intervalMs}`);
    }
  }

  /**
   * Batches the sink failed to take so far, whoever started the write (a flush or the
   * size or timer trigger): a caller that must know its samples were written compares it
   * before and after.
   */
  get failures(): number {
    return this.#failures;
  }

  /** Batches the sink took, and the seconds they took altogether (the metrics' batch latency). */
  get batches(): { count: number; seconds: number } {
    return { count: this.#batches, seconds: this.#batchSeconds };
  }

  /** Samples waiting to be written. */
  get pending(): number {
    return this.#count;
  }

  /** Queues samples and arranges their flush. */
  push(samples: readonly T[]): void {
    if (this.#closed) throw new TypeError("the telemetry store is closed");
    for (const s of samples) {
      this.#pending.push(s);
      this.#count += this.weigh(s);
    }
    if (this.#count >= this.options.batchSize) this.#arm(0);
    else if (this.#count > 0) this.#arm(this.options.intervalMs);
  }

  /** Writes everything queued now; rejects with the sink's error (or a deferred one). */
  flush(): Promise<void> {
    this.#disarm();
    const run = this.#running.then(() => this.#drain());
    this.#running = run.catch(() => {});
    return run.then(() => {
      const err = this.#deferredError;
      this.#deferredError = undefined;
      if (err !== undefined) throw err;
    });
  }

  /** Flushes and refuses further samples. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      this.#count = 0;
      const started = performance.now();
      try {
        await this.sink(batch);
        this.#batches++;
        this.#batchSeconds += (performance.now() - started) / 1000;
      } catch (err) {
        this.#failures++;
        throw err;
      }
    }
  }

  #arm(delay: number): void {
    if (this.#timer !== undefined) {
      if (delay > 0) return;
      this.#disarm();
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const run = this.#running.then(() => this.#drain());
      this.#running = run.catch((err) => {
        if (this.options.onError) this.options.onError(err);
        else this.#deferredError ??= err;
      });
    }, delay);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** How a store batches its writes. */
export interface StoreQueueOptions {
  /** Queued samples that trigger a write (default 5,000). */
  batchSize?: number;
  /** Longest time (ms) a queued sample waits to be written (default 1,000). */
  flushIntervalMs?: number;
  /** Receives errors of writes nobody awaited; without it the next `flush()` throws them. */
  onError?: (error: unknown) => void;
}

/** A checked read of one key of one device over a range [from, to) that is not empty. */
export interface KeyRead {
  serial: string;
  key: MeasurementKey;
  /** Index of the key (see `keyIndex`). */
  k: number;
  from: number;
  to: number;
}

/**
 * What every store shares: samples checked, queued and handed to `send` in batches, the
 * count of samples written, closing (the queue drained first, then `release`), and
 * queries checked (key, range, bucket, aggregate, an open store) before the backend's
 * `read…` method is asked; an empty range is answered without asking it. A backend that fails
 * a read rejects with a {@link TelemetryUnavailableError}; `check()` fails while the latest
 * write failed (until one succeeds) and when the backend's `probe()` does.
 */
export abstract class QueuedStore<T = NormSample> implements Omit<TelemetryStore, "prune"> {
  protected readonly queue: WriteQueue<T>;
  /** Samples the backend has taken. */
  protected written = 0;
  #closed = false;
  /** The error of the latest write of each kind (batches, merges), while none succeeded since. */
  #faults = new Map<string, unknown>();
  protected abstract readonly backend: TelemetryStats["backend"];

  /**
   * `weigh` counts the samples of a queued item, for a backend whose items are not single
   * samples (see {@link prepare}).
   */
  constructor(options: StoreQueueOptions, weigh?: (item: T) => number) {
    this.queue = new WriteQueue<T>(async (batch) => {
      try {
        await this.send(batch);
        this.noteWrite("batch");
      } catch (err) {
        this.noteWrite("batch", err);
        throw err;
      }
    }, {
      batchSize: options.batchSize ?? 5_000,
      intervalMs: options.flushIntervalMs ?? 1_000,
      onError: options.onError,
    }, weigh);
  }

  /** Writes one batch to the backend. */
  protected abstract send(batch: T[]): Promise<void>;

  /**
   * Checks samples (see `normalizeSamples`: nothing is queued unless all pass) and makes the
   * items queued for the backend; by default checked samples.
   */
  protected prepare(samples: readonly Sample[]): T[] {
    return normalizeSamples(samples) as T[];
  }

  /** Lets go of the backend once the queue is drained (or failed to drain). */
  protected abstract release(): Promise<void>;

  /** Throws when the backend cannot be read or written now (see `check()`). */
  protected abstract probe(): Promise<void>;

  /** The latest values of a device, or null (see `TelemetryStore.latest`). */
  protected abstract readLatest(serial: string): Promise<Sample | null>;

  /** One key aggregated per bucket: the whole buckets that overlap the range. */
  protected abstract readSeries(
    q: KeyRead,
    bucket: Bucket,
    agg: Aggregate,
  ): Point[] | Promise<Point[]>;

  /** A counter's increase over the range and its readings there. */
  protected abstract readCounterUsage(q: KeyRead): CounterUsage | Promise<CounterUsage>;

  /** A counter's increase per bucket: the whole buckets that overlap the range. */
  protected abstract readCounterSeries(q: KeyRead, bucket: Bucket): Point[] | Promise<Point[]>;

  /** Whether `close()` has run. */
  protected get closed(): boolean {
    return this.#closed;
  }

  /** Throws once the store is closed. */
  protected checkOpen(): void {
    if (this.#closed) throw new TypeError("the telemetry store is closed");
  }

  /** Records how a write of a kind (`batch`, or a backend's own such as a merge) ended. */
  protected noteWrite(kind: string, err: unknown = null): void {
    if (err === null) this.#faults.delete(kind);
    else this.#faults.set(kind, err);
  }

  /** Resolves when the store can be read and written; see {@link TelemetryStore.check}. */
  async check(): Promise<void> {
    this.checkOpen();
    for (const [kind, fault] of this.#faults) {
      throw new TelemetryUnavailableError(
        `the telemetry store failed its latest ${kind} write: ${messageOf(fault)}`,
        { cause: fault },
      );
    }
    await this.#read(() => this.probe());
  }

  /** A backend read; its failure becomes a {@link TelemetryUnavailableError}. */
  async #read<T>(read: () => T | Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof TelemetryUnavailableError) throw err;
      throw new TelemetryUnavailableError(
        `the telemetry store cannot be read: ${messageOf(err)}`,
        { cause: err },
      );
    }
  }

  stats(): TelemetryStats {
    return {
      samplesWritten: this.written,
      pending: this.queue.pending,
      failedWrites: this.queue.failures,
      batches: this.queue.batches.count,
      batchSeconds: this.queue.batches.seconds,
      backend: this.backend,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.queue.close();
    } finally {
      this.#closed = true;
      await this.release();
    }
  }

  write(samples: Sample[]): void {
    this.queue.push(this.prepare(samples));
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  // The queries take their signatures from TelemetryStore: only the checking is written here.

  latest: TelemetryStore["latest"] = async (serial) => {
    this.checkOpen();
    return await this.#read(() => this.readLatest(serial));
  };

  series: TelemetryStore["series"] = async (serial, key, from, to, bucket, agg) => {
    const k = keyIndex(key);
    checkRange(from, to);
    checkBucket(bucket);
    checkAggregate(agg);
    this.checkOpen();
    if (to <= from) return [];
    return await this.#read(() => this.readSeries({ serial, key, k, from, to }, bucket, agg));
  };

  counterDelta: TelemetryStore["counterDelta"] = async (serial, key, from, to) =>
    (await this.counterUsage(serial, key, from, to)).delta;

  counterUsage: NonNullable<TelemetryStore["counterUsage"]> = async (serial, key, from, to) => {
    const k = counterKeyIndex(key);
    checkRange(from, to);
    this.checkOpen();
    if (to <= from) return { delta: 0, readings: 0 };
    return await this.#read(() => this.readCounterUsage({ serial, key, k, from, to }));
  };

  counterSeries: TelemetryStore["counterSeries"] = async (serial, key, from, to, bucket) => {
    const k = counterKeyIndex(key);
    checkRange(from, to);
    checkBucket(bucket);
    this.checkOpen();
    if (to <= from) return [];
    return await this.#read(() => this.readCounterSeries({ serial, key, k, from, to }, bucket));
  };
}
