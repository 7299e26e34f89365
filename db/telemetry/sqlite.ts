/**
 * The embedded telemetry store: SQLite through `node:sqlite` (WAL for files,
 * synchronous=NORMAL), raw samples plus rollups for the 15-minute, hourly, daily and
 * monthly views, batched writes and a retention policy for raw samples. Raw samples are
 * kept per device in chunks of up to 32 within a 15-minute bucket, packed column by column
 * (_sqlite_chunks.ts, _chunk_codec.ts); a file of the earlier one-row-per-sample layout is
 * read as it is. Layout in _sqlite_schema.ts, write path in _sqlite_write.ts, read path in
 * _sqlite_read.ts.
 *
 * Writing has two steps (_sqlite_write.ts): a batch is first appended to a journal, which
 * makes it durable (`sync()` resolves then), and the journal is merged into what queries
 * read when `flush()` is called, every `flushIntervalMs` while it holds samples, and once
 * it holds `mergeSize` samples. A journal left by a process that stopped is merged when
 * the store opens; queries wait for that.
 *
 * A database file is checked before the store opens on it (`verifyDatabaseFile()`: a damaged
 * file or another database is refused) and watched while open: once it is deleted or replaced,
 * writes, reads and `check()` fail with `TelemetryUnavailableError` (_sqlite_file.ts).
 *
 * With `worker: true` the writing runs in a worker thread (_sqlite_offload.ts) and only
 * checking and packing samples stays on the caller's thread; reads use the caller's own
 * connection either way.
 *
 * With `readOnly: true` the store only reads a file another process writes (a portal beside
 * the ingest process): its one connection is opened read-only (a WAL reader, never blocking
 * the writer nor blocked by it), it never merges, prunes or probes by writing, and `write()`
 * and `prune()` are refused. It answers what the file holds: the writer's samples once that
 * writer merged them (its queue's interval plus its merge interval, about two seconds with
 * the defaults), exactly as the writer's own queries see them.
 *
 * Meaning of the queries (shared with the QuestDB store): ranges are [from, to) in epoch
 * ms; `series` and `counterSeries` answer whole UTC buckets that overlap the range (a
 * bucket starting before `from` counts whole) and leave out buckets without data;
 * `counterDelta` applies the rule of core/energy.ts exactly where raw rows are kept, and
 * at 15-minute resolution where they were pruned.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type KeyRead, QueuedStore, type StoreQueueOptions } from "./_queue.ts";
import {
  normalizeSamples,
  type NormSample,
  type PackedBatch,
  packedLength,
  packSamples,
} from "./_samples.ts";
import { WorkerWriter } from "./_sqlite_offload.ts";
import { openDatabase, Statements } from "./_sqlite_schema.ts";
import { readCounterSeries, readCounterUsage, readSeries } from "./_sqlite_read.ts";
import { SqliteWriter } from "./_sqlite_write.ts";
import { checkFileIdentity, fileIdentity, verifyDatabaseFile } from "./_sqlite_file.ts";
import {
  type Aggregate,
  type Bucket,
  type CounterUsage,
  type Point,
  type Sample,
  type TelemetryStore,
  TelemetryStoreRefused,
  TelemetryUnavailableError,
} from "./mod.ts";

/** Options of the SQLite store. */
export interface SqliteStoreOptions extends StoreQueueOptions {
  /** Days of raw samples kept by `prune()` (default 35); rollups are kept forever. */
  rawRetentionDays?: number;
  /** Write in a worker thread (database files only; default false). */
  worker?: boolean;
  /** Journaled samples that trigger a merge right away (default 50,000). */
  mergeSize?: number;
  /** Only read a database file another process writes (see above; default false). */
  readOnly?: boolean;
}

/**
 * What the write queue holds: checked samples for a writer on this thread, packed batches for
 * one in a worker (packed as they are written: no object per sample waits in the queue).
 */
type Item = NormSample | PackedBatch;

/** The writing side: inline (SqliteWriter) or in a worker (WorkerWriter). */
interface Writer {
  /** Checks samples and makes the items queued for `write`. */
  prepare(samples: readonly Sample[]): Item[];
  /** How many samples an item holds. */
  weigh(item: Item): number;
  write(batch: Item[]): number | Promise<number>;
  merge(): number | Promise<number>;
  prune(cutoff: number): number | Promise<number>;
  probe(): unknown;
  close(): void | Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * Opens the store on a database file (created with its folder if missing) or on
 * `":memory:"`; throws `TelemetryStoreRefused` when the file is damaged or not a telemetry
 * store. Several stores, in one process or several, may share a file: writes take
 * turns (SQLite's write lock) and each writer drops its cached state when another wrote.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): TelemetryStore {
  const retentionDays = options.rawRetentionDays ?? 35;
  if (!(retentionDays > 0) || !Number.isFinite(retentionDays)) {
    throw new RangeError(`rawRetentionDays must be a positive number of days: ${retentionDays}`);
  }
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(
      `openSqliteStore() needs a file path or ":memory:", got ${JSON.stringify(path)}`,
    );
  }
  if ((options.worker || options.readOnly) && path === ":memory:") {
    throw new TypeError("a writer worker or a reader needs a database file, not :memory:");
  }
  const file = path !== ":memory:";
  if (file && !options.readOnly) mkdirSync(dirname(path), { recursive: true });
  if (file) verifyDatabaseFile(path);
  const db = options.readOnly ? openReader(path) : openDatabase(path);
  const identity = file ? fileIdentity(path) : "";
  const checkFile = file ? () => checkFileIdentity(path, identity) : () => {};
  const st = new Statements(db);
  let writer: Writer;
  if (options.readOnly) writer = READ_ONLY;
  else if (options.worker) {
    const worker = new WorkerWriter(path, identity);
    writer = {
      prepare: (samples) => {
        const packed = packSamples(samples);
        return packed.data.length > 0 ? [packed] : [];
      },
      weigh: (item) => packedLength(item as PackedBatch),
      write: (parts) => worker.write(parts as PackedBatch[]),
      merge: () => worker.merge(),
      prune: (cutoff) => worker.prune(cutoff),
      probe: () => worker.probe(),
      close: () => worker.close(),
    };
  } else {
    const inline = new SqliteWriter(db, st, checkFile);
    writer = {
      prepare: normalizeSamples,
      weigh: () => 1,
      write: (b) => inline.write(b as NormSample[]),
      merge: () => inline.merge(),
      prune: (c) => inline.prune(c),
      probe: () => inline.probe(),
      close: () => {},
    };
  }
  return new SqliteStore(db, st, writer, retentionDays * DAY_MS, checkFile, options);
}

/** What a reader answers when asked to write. */
function refused(): never {
  throw new TelemetryUnavailableError(
    "this process only reads the telemetry store: the process that owns it (ingest) writes",
  );
}

/** The writing side of a reader: every write refused, nothing to close. */
const READ_ONLY: Writer = {
  prepare: refused,
  weigh: () => 1,
  write: refused,
  merge: refused,
  prune: refused,
  probe: () => {},
  close: () => {},
};

/**
 * A read-only connection to a telemetry file the writer made (refused when there is none
 * yet: the reader does not create it).
 */
function openReader(path: string): DatabaseSync {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch (e) {
    if ((e as { code?: string }).code !== "ENOENT") throw e;
  }
  if (size === 0) {
    throw new TelemetryStoreRefused(
      `There is no telemetry store at ${path} yet. A portal with INGEST=off only reads it; ` +
        "the ingest process (`deno task ingest`) creates it when it starts: start it first.",
    );
  }
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA cache_size = -8192");
  return db;
}

class SqliteStore extends QueuedStore<Item> implements TelemetryStore {
  readonly #db: DatabaseSync;
  readonly #st: Statements;
  readonly #writer: Writer;
  readonly #sids = new Map<string, number>();
  readonly #mergeSize: number;
  readonly #mergeIntervalMs: number;
  readonly #onError?: (error: unknown) => void;
  /** Samples journaled since the last merge began. */
  #unmerged = 0;
  #mergeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The latest merge (they run one at a time). */
  #merging: Promise<void> = Promise.resolve();
  /** The merge of a journal found at opening, which queries wait for. */
  readonly #opened: Promise<void> = Promise.resolve();
  readonly #readOnly: boolean;
  protected readonly backend = "sqlite";

  constructor(
    db: DatabaseSync,
    st: Statements,
    writer: Writer,
    private readonly retentionMs: number,
    private readonly checkFile: () => void,
    options: SqliteStoreOptions,
  ) {
    super(options, (item) => writer.weigh(item));
    this.#db = db;
    this.#st = st;
    this.#writer = writer;
    this.#mergeSize = options.mergeSize ?? 50_000;
    this.#mergeIntervalMs = options.flushIntervalMs ?? 1_000;
    this.#onError = options.onError;
    this.#readOnly = options.readOnly === true;
    if (!this.#readOnly && (st.journalEnd.get() as { seq: number | null }).seq !== null) {
      // A stopped process's journal; if merging fails, queries go on without it.
      this.#opened = this.#merge().catch((err) => this.#onError?.(err));
    }
  }

  protected override prepare(samples: readonly Sample[]): Item[] {
    return this.#writer.prepare(samples);
  }

  protected override async send(batch: Item[]): Promise<void> {
    const taken = await this.#writer.write(batch);
    this.written += taken;
    this.#unmerged += taken;
    if (this.#unmerged >= this.#mergeSize) this.#merge().catch((err) => this.#onError?.(err));
    else if (this.#mergeTimer === undefined) {
      this.#mergeTimer = setTimeout(() => {
        this.#mergeTimer = undefined;
        this.#merge().catch((err) => this.#onError?.(err));
      }, this.#mergeIntervalMs);
    }
  }

  /** Queues samples; a reader refuses them at once ({@link TelemetryUnavailableError}). */
  override write(samples: Sample[]): void {
    if (this.#readOnly) refused();
    super.write(samples);
  }

  /** Writes everything queued durably; queries may see it only after `flush()`. */
  sync(): Promise<void> {
    return super.flush();
  }

  override async flush(): Promise<void> {
    await super.flush();
    if (!this.#readOnly) await this.#merge();
  }

  /** Merges the journal after any merge under way; a failed merge leaves it for the next. */
  #merge(): Promise<void> {
    clearTimeout(this.#mergeTimer);
    this.#mergeTimer = undefined;
    this.#unmerged = 0;
    const run = this.#merging.catch(() => {}).then(async () => {
      try {
        await this.#writer.merge();
        this.noteWrite("merge");
      } catch (err) {
        this.noteWrite("merge", err);
        throw err;
      }
    });
    this.#merging = run;
    return run;
  }

  protected async readLatest(serial: string): Promise<Sample | null> {
    await this.#opened;
    this.checkFile();
    const row = this.#st.latestBySerial.get(serial) as { ts: number; data: string } | undefined;
    return row ? { serial, ts: row.ts, values: JSON.parse(row.data) } : null;
  }

  protected async readSeries(q: KeyRead, bucket: Bucket, agg: Aggregate): Promise<Point[]> {
    const sid = await this.#readSid(q.serial);
    if (sid === null) return [];
    // A 15-minute series is one statement; coarser ones may read the open bucket's finer rows.
    const read = () => readSeries(this.#st, sid, q, bucket, agg);
    return bucket === "15m" ? read() : this.#snapshot(read);
  }

  protected async readCounterUsage(q: KeyRead): Promise<CounterUsage> {
    const sid = await this.#readSid(q.serial);
    return sid === null
      ? { delta: 0, readings: 0 }
      : this.#snapshot(() => readCounterUsage(this.#st, sid, q));
  }

  protected async readCounterSeries(q: KeyRead, bucket: Bucket): Promise<Point[]> {
    const sid = await this.#readSid(q.serial);
    return sid === null ? [] : this.#snapshot(() => readCounterSeries(this.#st, sid, q, bucket));
  }

  /**
   * Runs a query's statements in one read transaction: an open bucket is read from the finer
   * rows and the newest sample time (_sqlite_open.ts), so a merge another connection commits
   * between two of them must be seen by all or none.
   */
  #snapshot<T>(read: () => T): T {
    if (this.#db.isTransaction) return read();
    this.#db.exec("BEGIN");
    try {
      return read();
    } finally {
      this.#db.exec("COMMIT");
    }
  }

  async prune(now: number): Promise<number> {
    if (!Number.isFinite(now)) throw new RangeError(`prune() needs a finite instant, got ${now}`);
    this.checkOpen();
    return await this.#writer.prune(now - this.retentionMs);
  }

  protected override async release(): Promise<void> {
    try {
      if (!this.#readOnly) await this.#merge();
    } finally {
      try {
        await this.#writer.close();
      } finally {
        this.#db.close();
      }
    }
  }

  /** The file is the store's still, it can be read, and a small write goes through. */
  protected async probe(): Promise<void> {
    this.checkFile();
    this.#st.getMeta.get("raw_horizon");
    await this.#writer.probe();
  }

  async #readSid(serial: string): Promise<number | null> {
    await this.#opened;
    this.checkFile();
    return this.#sid(serial);
  }

  #sid(serial: string): number | null {
    this.checkOpen();
    const known = this.#sids.get(serial);
    if (known !== undefined) return known;
    const row = this.#st.sidOf.get(serial) as { sid: number } | undefined;
    if (!row) return null;
    this.#sids.set(serial, row.sid);
    return row.sid;
  }
}
