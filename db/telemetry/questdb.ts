/**
 * The QuestDB telemetry store, chosen when `QUESTDB_URL` is set: samples go out as ILP
 * over HTTP with `@questdb/nodejs-client` (one request, one transaction, per batch);
 * queries are SQL over the REST `/exec` endpoint (text and parsing in questdb_sql.ts).
 *
 * Meaning of the queries is the same as the SQLite store's (see sqlite.ts). Differences:
 * - Counter deltas are exact at raw resolution: per-bucket first/last/min/max come from
 *   `SAMPLE BY`, and the readings of a bucket that may hold a reset are fetched and folded
 *   with the rule of core/energy.ts.
 * - `latest()` merges the last non-null value of each key over the day before the device's
 *   newest row.
 * - Raw rows are never deleted here (no rollups to fall back on): `prune()` does nothing
 *   and answers 0; set a TTL on the table in QuestDB if it must shrink.
 * - Samples of the same device and instant are merged within a batch; across batches the
 *   later one replaces the earlier (deduplication on ts and serial).
 * - `flush()` resolves once QuestDB has applied the transaction (WAL), so queries see it.
 */
import { Sender } from "@questdb/nodejs-client";
import { MEASUREMENT_KEYS, type MeasurementKey } from "../../core/devices.ts";
import {
  bucketIncreases,
  type CounterPartial,
  foldPartials,
  partialOf,
} from "../../core/energy.ts";
import { bucketCeil, bucketFloor, bucketNext } from "./_buckets.ts";
import { type KeyRead, QueuedStore, type StoreQueueOptions } from "./_queue.ts";
import { groupBySerial, type NormSample } from "./_samples.ts";
import {
  checkTableName,
  cleanPartial,
  type CounterBucketRow,
  counterBucketsFrom,
  counterBucketsSql,
  createTableSql,
  type ExecAnswer,
  firstTsFrom,
  lastBeforeSql,
  latestTsSql,
  latestValuesFrom,
  latestValuesSql,
  parseExecAnswer,
  pointsFrom,
  type QuestDbEndpoint,
  questDbEndpoint,
  readingsSql,
  seriesSql,
  valuesFrom,
  walStatusFrom,
  walStatusSql,
} from "./questdb_sql.ts";
import type { Aggregate, Bucket, CounterUsage, Point, Sample, TelemetryStore } from "./mod.ts";

/** Options of the QuestDB store. */
interface QuestDbStoreOptions extends StoreQueueOptions {
  /** Table name (default `readings`). */
  table?: string;
  /** Longest wait (ms) for QuestDB to apply a written batch (default 10,000). */
  visibilityTimeoutMs?: number;
}

const DAY_MS = 86_400_000;

/** Opens the store: checks the URL, creates the table if missing. */
export async function openQuestDbStore(
  url: string,
  options: QuestDbStoreOptions = {},
): Promise<TelemetryStore> {
  const endpoint = questDbEndpoint(url);
  const table = checkTableName(options.table ?? "readings");
  const rest = new RestClient(endpoint);
  await rest.exec(createTableSql(table));
  const sender = await Sender.fromConfig(endpoint.senderConfig);
  return new QuestDbStore(rest, sender, table, options);
}

/** SQL over `/exec`. */
class RestClient {
  constructor(private readonly endpoint: QuestDbEndpoint) {}

  async exec(sql: string): Promise<ExecAnswer> {
    const headers: Record<string, string> = {};
    if (this.endpoint.authorization) headers.authorization = this.endpoint.authorization;
    const res = await fetch(`${this.endpoint.restBase}/exec?query=${encodeURIComponent(sql)}`, {
      headers,
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`QuestDB /exec answered ${res.status} without JSON: ${text.slice(0, 200)}`);
    }
    return parseExecAnswer(body);
  }
}

class QuestDbStore extends QueuedStore implements TelemetryStore {
  readonly #visibilityTimeoutMs: number;
  protected readonly backend = "questdb";

  constructor(
    private readonly rest: RestClient,
    private readonly sender: Sender,
    private readonly table: string,
    options: QuestDbStoreOptions,
  ) {
    super(options);
    this.#visibilityTimeoutMs = options.visibilityTimeoutMs ?? 10_000;
  }

  protected async readLatest(serial: string): Promise<Sample | null> {
    const ts = firstTsFrom(await this.rest.exec(latestTsSql(this.table, serial)));
    if (ts === null) return null;
    const values = latestValuesFrom(
      await this.rest.exec(latestValuesSql(this.table, serial, ts - DAY_MS, ts)),
    );
    return { serial, ts, values };
  }

  protected async readSeries(q: KeyRead, bucket: Bucket, agg: Aggregate): Promise<Point[]> {
    const aligned = { ...q, from: bucketFloor(bucket, q.from), to: bucketCeil(bucket, q.to) };
    return pointsFrom(await this.rest.exec(seriesSql(this.table, aligned, bucket, agg)));
  }

  protected async readCounterUsage({ serial, key, from, to }: KeyRead): Promise<CounterUsage> {
    const before = await this.#lastBefore(serial, key, from);
    const unit: Bucket = to - from > 3 * DAY_MS ? "1d" : "15m";
    const partials = await this.#partials(serial, key, from, to, unit);
    const parts: (CounterPartial | null)[] = before === null
      ? []
      : [{ first: before, last: before, increase: 0 }];
    return {
      delta: foldPartials([...parts, ...partials.map((p) => p.partial)])?.increase ?? 0,
      readings: partials.reduce((n, p) => n + p.count, 0),
    };
  }

  protected async readCounterSeries(
    { serial, key, from, to }: KeyRead,
    bucket: Bucket,
  ): Promise<Point[]> {
    const start = bucketFloor(bucket, from);
    const before = await this.#lastBefore(serial, key, start);
    const partials = await this.#partials(serial, key, start, bucketCeil(bucket, to), bucket);
    const values = bucketIncreases(partials.map((p) => p.partial), before);
    return values.map((value, i) => ({ ts: partials[i].ts, value }));
  }

  /** QuestDB answers a query on the table (its writes are checked as they happen). */
  protected async probe(): Promise<void> {
    walStatusFrom(await this.rest.exec(walStatusSql(this.table)));
  }

  prune(now: number): Promise<number> {
    if (!Number.isFinite(now)) {
      return Promise.reject(new RangeError(`prune() needs a finite instant, got ${now}`));
    }
    if (this.closed) return Promise.reject(new TypeError("the telemetry store is closed"));
    return Promise.resolve(0);
  }

  protected override async release(): Promise<void> {
    await this.sender.close();
  }

  /** Sends one batch as one HTTP request, then waits until QuestDB has applied it. */
  protected override async send(batch: NormSample[]): Promise<void> {
    let rows = 0;
    try {
      for (const [serial, samples] of groupBySerial(batch)) {
        for (const s of samples) {
          this.sender.table(this.table).symbol("serial", serial);
          s.vals.forEach((v, k) => {
            if (v !== null) this.sender.floatColumn(MEASUREMENT_KEYS[k], v);
          });
          await this.sender.at(s.ts, "ms");
          rows++;
        }
      }
      await this.sender.flush();
    } catch (err) {
      this.sender.reset();
      throw err;
    }
    await this.#awaitApplied();
    this.written += rows;
  }

  async #awaitApplied(): Promise<void> {
    const target = walStatusFrom(await this.rest.exec(walStatusSql(this.table)));
    if (target === null) return;
    const deadline = Date.now() + this.#visibilityTimeoutMs;
    let status = target;
    for (let wait = 5; status.writerTxn < target.sequencerTxn; wait = Math.min(wait * 2, 200)) {
      if (Date.now() > deadline) {
        throw new Error(
          `QuestDB has not applied transaction ${target.sequencerTxn} of ${this.table} ` +
            `within ${this.#visibilityTimeoutMs} ms (applied: ${status.writerTxn})`,
        );
      }
      await new Promise((r) => setTimeout(r, wait));
      status = walStatusFrom(await this.rest.exec(walStatusSql(this.table))) ?? target;
    }
  }

  async #lastBefore(serial: string, key: MeasurementKey, t: number): Promise<number | null> {
    return valuesFrom(await this.rest.exec(lastBeforeSql(this.table, serial, key, t)))[0] ?? null;
  }

  /** Per-bucket partials over [from, to); buckets that may hold a reset are read in full. */
  async #partials(
    serial: string,
    key: MeasurementKey,
    from: number,
    to: number,
    bucket: Bucket,
  ): Promise<{ ts: number; partial: CounterPartial; count: number }[]> {
    const rows = counterBucketsFrom(
      await this.rest.exec(counterBucketsSql(this.table, { serial, key, from, to }, bucket)),
    );
    const out: { ts: number; partial: CounterPartial; count: number }[] = [];
    for (const row of rows) {
      out.push({
        ts: row.ts,
        count: row.count,
        partial: cleanPartial(row) ?? await this.#readBucket(serial, key, row, bucket, from, to),
      });
    }
    return out;
  }

  async #readBucket(
    serial: string,
    key: MeasurementKey,
    row: CounterBucketRow,
    bucket: Bucket,
    from: number,
    to: number,
  ): Promise<CounterPartial> {
    const a = Math.max(row.ts, from), b = Math.min(bucketNext(bucket, row.ts), to);
    const values = valuesFrom(
      await this.rest.exec(readingsSql(this.table, { serial, key, from: a, to: b })),
    );
    return partialOf(values) ??
      { first: row.first, last: row.last, increase: row.last - row.first };
  }
}
