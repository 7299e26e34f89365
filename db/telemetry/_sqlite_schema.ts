/**
 * The SQLite telemetry database: schema and prepared statements.
 *
 * Layout (one database file, or `:memory:`):
 * - `devices(sid, serial)`: a small integer id per serial.
 * - `chunks(sid, start, n, data)`: raw samples, rows of up to 32 samples of a device within
 *   one UTC 15-minute bucket, `start` the first one's time, `data` the `n` samples in time
 *   order packed column by column (_chunk_codec.ts: one or two bytes a value where a row of
 *   REALs took eight and more). The chunk being filled is rewritten by each merge. A rowid table (with an index on
 *   `(sid, start)`): its rows keep a chunk of up to a page inline, where a table without
 *   rowid moves all but about a quarter page to overflow pages. Pruned after the raw
 *   retention.
 * - `raw(sid, ts, <one REAL column per measurement key>)`: the earlier layout, one row per
 *   sample (NULL where a partial frame left a key out). Nothing is written here any more; rows
 *   of an older file are read beside the chunks (_sqlite_chunks.ts), moved into a chunk when a
 *   late sample rewrites their bucket, and pruned with them.
 * - `journal(seq, serials, data)`: batches written but not yet merged into the chunks, the
 *   rollups and `latest`, one row per batch in the order they came, as `packJournal()`
 *   packs them (`serials` a JSON array, `data` the samples as a chunk; _journal_codec.ts).
 *   Appending here is what makes a write durable: it touches only the table's last pages,
 *   where writing straight into `raw` touched a page per device.
 * - `roll_15m`, `roll_1h`, `roll_1d`, `roll_1mo` `(sid, start, agg)`: one row per device and
 *   UTC bucket, `agg` the bucket's aggregates of every key (see _rollup.ts). Kept forever.
 *   A 15-minute row is written at every merge that adds to it; an hourly, daily or monthly
 *   one once, when its bucket closes: the bucket holding the device's newest sample is read
 *   from the finer rows (_sqlite_open.ts), and a row stored for it (a file written before) is
 *   left out until the bucket closes and it is written again.
 * - `latest(sid, ts, data, key_ts)`: the newest sample time of each device, the newest
 *   value of each key (JSON) and the time of the sample it came from (JSON).
 * - `meta(key, value)`: `raw_horizon`, the instant before which raw rows were pruned.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { keySlots } from "./_rollup.ts";
import type { Bucket } from "./mod.ts";

/** Rollup table of each bucket size (SQLite names are case-insensitive: 1m would be 1M). */
export const ROLL_TABLE: Record<Bucket, string> = {
  "15m": "roll_15m",
  "1h": "roll_1h",
  "1d": "roll_1d",
  "1M": "roll_1mo",
};

const KEYS = MEASUREMENT_KEYS as readonly string[];

/** Opens (creating if needed) a telemetry database. */
export function openDatabase(path: string): DatabaseSync {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA page_size = 8192");
  if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA busy_timeout = 5000");
  // 8 MiB of pages per connection (the reader and the writer each have one): a bounded cache by
  // choice; the operating system's file cache keeps the rest of a large file warm.
  db.exec("PRAGMA cache_size = -8192");
  db.exec(`
    CREATE TABLE IF NOT EXISTS devices (sid INTEGER PRIMARY KEY, serial TEXT NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS raw (
      sid INTEGER NOT NULL, ts INTEGER NOT NULL, ${KEYS.map((k) => `${k} REAL`).join(", ")},
      PRIMARY KEY (sid, ts)
    ) WITHOUT ROWID;
    ${
    Object.values(ROLL_TABLE).map((t) =>
      `CREATE TABLE IF NOT EXISTS ${t} (
         sid INTEGER NOT NULL, start INTEGER NOT NULL, agg BLOB NOT NULL, PRIMARY KEY (sid, start)
       ) WITHOUT ROWID;`
    ).join("\n")
  }
    CREATE TABLE IF NOT EXISTS latest (
      sid INTEGER PRIMARY KEY, ts INTEGER NOT NULL, data TEXT NOT NULL, key_ts TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS chunks (
      sid INTEGER NOT NULL, start INTEGER NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL,
      UNIQUE (sid, start)
    );
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS journal (
      seq INTEGER PRIMARY KEY, serials TEXT NOT NULL, data BLOB NOT NULL
    );
  `);
  return db;
}

/** Statements of one rollup table. */
interface RollStatements {
  get: StatementSync;
  upsert: StatementSync;
  range: StatementSync;
  rangeDesc: StatementSync;
}

/** The prepared statements of a telemetry database (per-key ones made on first use). */
export class Statements {
  readonly sidOf: StatementSync;
  readonly addDevice: StatementSync;
  readonly allSids: StatementSync;
  readonly latestOf: StatementSync;
  readonly latestTsOf: StatementSync;
  readonly latestBySerial: StatementSync;
  readonly upsertLatest: StatementSync;
  readonly deleteChunkRange: StatementSync;
  readonly chunkRange: StatementSync;
  readonly upsertChunk: StatementSync;
  readonly prunedChunkSamples: StatementSync;
  readonly pruneChunks: StatementSync;
  readonly anyRaw: StatementSync;
  readonly deleteRawRange: StatementSync;
  readonly appendJournal: StatementSync;
  readonly journalEnd: StatementSync;
  readonly journalRows: StatementSync;
  readonly clearJournal: StatementSync;
  readonly rawRange: StatementSync;
  readonly pruneRaw: StatementSync;
  readonly getMeta: StatementSync;
  readonly setMeta: StatementSync;
  readonly dataVersion: StatementSync;
  readonly roll: Record<Bucket, RollStatements>;
  #keyRange = new Map<number, StatementSync>();
  #keyRoll = new Map<string, { range: StatementSync; rangeDesc: StatementSync }>();

  constructor(private readonly db: DatabaseSync) {
    const cols = KEYS.join(", ");
    this.sidOf = db.prepare("SELECT sid FROM devices WHERE serial = ?");
    this.addDevice = db.prepare("INSERT INTO devices (serial) VALUES (?)");
    this.allSids = db.prepare("SELECT sid FROM devices ORDER BY sid");
    this.latestOf = db.prepare("SELECT ts, data, key_ts FROM latest WHERE sid = ?");
    this.latestTsOf = db.prepare("SELECT ts FROM latest WHERE sid = ?");
    this.latestBySerial = db.prepare(
      "SELECT l.ts AS ts, l.data AS data FROM latest l JOIN devices d ON d.sid = l.sid WHERE d.serial = ?",
    );
    this.upsertLatest = db.prepare(
      "INSERT INTO latest (sid, ts, data, key_ts) VALUES (?, ?, ?, ?) ON CONFLICT (sid) " +
        "DO UPDATE SET ts = excluded.ts, data = excluded.data, key_ts = excluded.key_ts",
    );
    this.deleteChunkRange = db.prepare(
      "DELETE FROM chunks WHERE sid = ? AND start >= ? AND start < ?",
    );
    this.chunkRange = db.prepare(
      "SELECT data FROM chunks WHERE sid = ? AND start >= ? AND start < ? ORDER BY start",
    );
    this.upsertChunk = db.prepare(
      "INSERT INTO chunks (sid, start, n, data) VALUES (?, ?, ?, ?) ON CONFLICT (sid, start) " +
        "DO UPDATE SET n = excluded.n, data = excluded.data",
    );
    this.prunedChunkSamples = db.prepare(
      "SELECT coalesce(sum(n), 0) AS n FROM chunks WHERE sid = ? AND start < ?",
    );
    this.pruneChunks = db.prepare("DELETE FROM chunks WHERE sid = ? AND start < ?");
    this.anyRaw = db.prepare("SELECT 1 AS one FROM raw LIMIT 1");
    this.deleteRawRange = db.prepare("DELETE FROM raw WHERE sid = ? AND ts >= ? AND ts < ?");
    this.appendJournal = db.prepare("INSERT INTO journal (serials, data) VALUES (?, ?)");
    this.journalEnd = db.prepare("SELECT max(seq) AS seq FROM journal");
    this.journalRows = db.prepare(
      "SELECT serials, data FROM journal WHERE seq <= ? ORDER BY seq",
    );
    this.clearJournal = db.prepare("DELETE FROM journal WHERE seq <= ?");
    this.rawRange = db.prepare(
      `SELECT ts, ${cols} FROM raw WHERE sid = ? AND ts >= ? AND ts < ? ORDER BY ts`,
    );
    this.pruneRaw = db.prepare("DELETE FROM raw WHERE sid = ? AND ts < ?");
    this.getMeta = db.prepare("SELECT value FROM meta WHERE key = ?");
    this.setMeta = db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    this.dataVersion = db.prepare("PRAGMA data_version");
    const roll = {} as Record<Bucket, RollStatements>;
    for (const [bucket, t] of Object.entries(ROLL_TABLE) as [Bucket, string][]) {
      roll[bucket] = {
        get: db.prepare(`SELECT agg FROM ${t} WHERE sid = ? AND start = ?`),
        upsert: db.prepare(
          `INSERT INTO ${t} (sid, start, agg) VALUES (?, ?, ?) ` +
            "ON CONFLICT (sid, start) DO UPDATE SET agg = excluded.agg",
        ),
        range: db.prepare(
          `SELECT start, agg FROM ${t} WHERE sid = ? AND start >= ? AND start < ? ORDER BY start`,
        ),
        rangeDesc: db.prepare(
          `SELECT start, agg FROM ${t} WHERE sid = ? AND start >= ? AND start < ? ORDER BY start DESC`,
        ),
      };
    }
    this.roll = roll;
  }

  /** One key's non-null values in [from, to) of the earlier layout, in time order: `{ ts, v }`. */
  keyRange(k: number): StatementSync {
    let s = this.#keyRange.get(k);
    if (!s) {
      const c = KEYS[k];
      s = this.db.prepare(
        `SELECT ts, ${c} AS v FROM raw WHERE sid = ? AND ts >= ? AND ts < ? AND ${c} IS NOT NULL ORDER BY ts`,
      );
      this.#keyRange.set(k, s);
    }
    return s;
  }

  /**
   * Rollup rows of one bucket size in [from, to) with only one key's slots: rows
   * `{ start, agg }`, `agg` read with `slicePartial()` and its siblings (_rollup.ts).
   */
  keyRoll(bucket: Bucket, k: number): { range: StatementSync; rangeDesc: StatementSync } {
    const id = `${bucket}:${k}`;
    let s = this.#keyRoll.get(id);
    if (!s) {
      const { offset, length } = keySlots(k);
      const select = `SELECT start, substr(agg, ${offset + 1}, ${length}) AS agg FROM ${
        ROLL_TABLE[bucket]
      } WHERE sid = ? AND start >= ? AND start < ? ORDER BY start`;
      s = { range: this.db.prepare(select), rangeDesc: this.db.prepare(`${select} DESC`) };
      this.#keyRoll.set(id, s);
    }
    return s;
  }
}
