/**
 * What the QuestDB store says and understands, as pure functions: the SQL it sends to
 * `/exec`, the parsing of `/exec` answers (`{ columns: [{ name, type }], dataset: [[...]],
 * count }`, or `{ error, position }`), and the ILP/HTTP sender configuration.
 *
 * Table layout: one table (default `readings`) with a SYMBOL `serial`, one DOUBLE column
 * per measurement key and the designated TIMESTAMP `ts`, partitioned by day, WAL, with
 * deduplication on (ts, serial) so a redelivered sample replaces itself instead of
 * counting twice. Buckets are `SAMPLE BY 15m|1h|1d|1M ALIGN TO CALENDAR` (UTC).
 */
import { MEASUREMENT_KEYS, type MeasurementKey } from "../../core/devices.ts";
import { type CounterPartial, RESET_TOLERANCE_KWH } from "../../core/energy.ts";
import type { Aggregate, Bucket, Point } from "./mod.ts";

/** A parsed `/exec` answer: rows keyed by column name. */
export interface ExecAnswer {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
}

/** Per-bucket counter figures as `counterBucketsSql()` asks for them. */
export interface CounterBucketRow {
  ts: number;
  first: number;
  last: number;
  min: number;
  max: number;
  count: number;
}

/** How to reach QuestDB, derived from its URL. */
export interface QuestDbEndpoint {
  /** Configuration string of the ILP sender (`http::addr=host:port;...`). */
  senderConfig: string;
  /** Base URL of the REST API (origin, no credentials). */
  restBase: string;
  /** Authorization header for the REST API, if the URL carried credentials. */
  authorization?: string;
}

/** Checks a table name (plain identifier); TypeError otherwise. */
export function checkTableName(table: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,126}$/.test(table)) {
    throw new TypeError(`QuestDB table name must be a plain identifier: ${JSON.stringify(table)}`);
  }
  return table;
}

/** A SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A UTC timestamp literal with microseconds, as QuestDB parses it. */
export function sqlTimestamp(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`not a finite instant: ${ms}`);
  return `'${new Date(Math.floor(ms)).toISOString().replace("Z", "000Z")}'`;
}

/** The table of the store (created once at open). */
export function createTableSql(table: string): string {
  const cols = MEASUREMENT_KEYS.map((k) => `${k} DOUBLE`).join(", ");
  return `CREATE TABLE IF NOT EXISTS ${
    checkTableName(table)
  } (serial SYMBOL, ${cols}, ts TIMESTAMP) ` +
    "TIMESTAMP(ts) PARTITION BY DAY WAL DEDUP UPSERT KEYS(ts, serial)";
}

/** One key of one meter over [from, to): what the reading queries select. */
export interface KeyWindow {
  serial: string;
  key: MeasurementKey;
  from: number;
  to: number;
}

/** `SELECT ts, <columns> FROM table` of the window's non-null values, then `rest`. */
function selectIn(table: string, w: KeyWindow, columns: string, rest: string): string {
  return `SELECT ts, ${columns} FROM ${checkTableName(table)} ` +
    `WHERE serial = ${sqlString(w.serial)} AND ts >= ${sqlTimestamp(w.from)} ` +
    `AND ts < ${sqlTimestamp(w.to)} AND ${w.key} IS NOT NULL ${rest}`;
}

const BY_CALENDAR = (bucket: Bucket) => `SAMPLE BY ${bucket} ALIGN TO CALENDAR`;

/** One key aggregated per bucket over the window (callers pass bucket-aligned bounds). */
export function seriesSql(table: string, w: KeyWindow, bucket: Bucket, agg: Aggregate): string {
  return selectIn(table, w, `${agg}(${w.key}) v`, BY_CALENDAR(bucket));
}

/** First, last, min, max and count of a counter key per bucket over the window. */
export function counterBucketsSql(table: string, w: KeyWindow, bucket: Bucket): string {
  const k = w.key;
  const columns = `first(${k}) f, last(${k}) l, min(${k}) lo, max(${k}) hi, count() n`;
  return selectIn(table, w, columns, BY_CALENDAR(bucket));
}

/** The readings of one key over the window, in time order. */
export function readingsSql(table: string, w: KeyWindow): string {
  return selectIn(table, w, `${w.key} v`, "ORDER BY ts");
}

/** The last reading of one key before `t` (the filter applies before LATEST ON). */
export function lastBeforeSql(
  table: string,
  serial: string,
  key: MeasurementKey,
  t: number,
): string {
  return `SELECT serial, ts, ${key} v FROM ${checkTableName(table)} WHERE serial = ${
    sqlString(serial)
  } ` +
    `AND ts < ${sqlTimestamp(t)} AND ${key} IS NOT NULL LATEST ON ts PARTITION BY serial`;
}

/** The time of a device's newest row. */
export function latestTsSql(table: string, serial: string): string {
  return `SELECT serial, ts FROM ${checkTableName(table)} WHERE serial = ${sqlString(serial)} ` +
    "LATEST ON ts PARTITION BY serial";
}

/** The last non-null value of every key of a device over [since, until]. */
export function latestValuesSql(
  table: string,
  serial: string,
  since: number,
  until: number,
): string {
  const cols = MEASUREMENT_KEYS.map((k) => `last_not_null(${k}) ${k}`).join(", ");
  return `SELECT ${cols} FROM ${checkTableName(table)} WHERE serial = ${sqlString(serial)} ` +
    `AND ts >= ${sqlTimestamp(since)} AND ts <= ${sqlTimestamp(until)}`;
}

/** The WAL transactions of the table (applied and committed). */
export function walStatusSql(table: string): string {
  return `SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = ${
    sqlString(checkTableName(table))
  }`;
}

/**
 * Parses an `/exec` answer. Throws Error with QuestDB's message (and position) for an
 * error answer, TypeError for anything that is not an answer.
 */
export function parseExecAnswer(body: unknown): ExecAnswer {
  if (typeof body !== "object" || body === null) {
    throw new TypeError(`QuestDB answer is not an object: ${body}`);
  }
  const b = body as Record<string, unknown>;
  if (typeof b.error === "string") {
    const at = typeof b.position === "number" ? ` at position ${b.position}` : "";
    throw new Error(
      `QuestDB rejected the query${at}: ${b.error}${
        typeof b.query === "string" ? ` (${b.query})` : ""
      }`,
    );
  }
  if (b.ddl !== undefined && b.columns === undefined) return { columns: [], rows: [] };
  if (!Array.isArray(b.columns) || !Array.isArray(b.dataset)) {
    throw new TypeError(
      `QuestDB answer has no columns and dataset: ${JSON.stringify(body).slice(0, 200)}`,
    );
  }
  const columns = b.columns.map((c, i) => {
    const col = c as Record<string, unknown>;
    if (typeof col?.name !== "string" || typeof col.type !== "string") {
      throw new TypeError(`QuestDB answer column ${i} has no name and type`);
    }
    return { name: col.name, type: col.type };
  });
  const rows = b.dataset.map((r, i) => {
    if (!Array.isArray(r) || r.length !== columns.length) {
      throw new TypeError(`QuestDB answer row ${i} does not have ${columns.length} values`);
    }
    const row: Record<string, unknown> = {};
    columns.forEach((c, j) =>
      row[c.name] = c.type === "TIMESTAMP" && r[j] !== null ? parseTimestamp(r[j]) : r[j]
    );
    return row;
  });
  return { columns, rows };
}

/** A TIMESTAMP value of an answer (ISO text with microseconds, or epoch µs) as epoch ms. */
export function parseTimestamp(v: unknown): number {
  if (typeof v === "number" && Number.isFinite(v)) return Math.floor(v / 1000);
  if (typeof v === "string") {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(v);
    if (m) {
      const ms = Number(((m[7] ?? "") + "000").slice(0, 3));
      return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], ms);
    }
  }
  throw new TypeError(`not a QuestDB timestamp: ${JSON.stringify(v)}`);
}

/** Points `(ts, v)` of a series answer; null values (no data) are left out. */
export function pointsFrom(answer: ExecAnswer): Point[] {
  const out: Point[] = [];
  for (const r of answer.rows) {
    if (typeof r.v === "number" && typeof r.ts === "number") out.push({ ts: r.ts, value: r.v });
  }
  return out;
}

/** Rows of a `counterBucketsSql()` answer (buckets without data are left out). */
export function counterBucketsFrom(answer: ExecAnswer): CounterBucketRow[] {
  const out: CounterBucketRow[] = [];
  for (const r of answer.rows) {
    if (typeof r.f !== "number" || typeof r.l !== "number" || typeof r.ts !== "number") continue;
    out.push({
      ts: r.ts,
      first: r.f,
      last: r.l,
      min: Number(r.lo),
      max: Number(r.hi),
      count: Number(r.n),
    });
  }
  return out;
}

/**
 * The partial of a bucket known only by first, last, min and max, when those show no drop
 * beyond the tolerance: first is the minimum and last the maximum (within it), so the
 * increase is exactly last - first. Null when the bucket may hold a reset and its
 * readings must be fetched. (A drop that stays above the bucket's first value and
 * recovers above the previous peak inside one bucket goes unseen; a reset to zero never
 * does unless the counter was below the tolerance at the bucket's start.)
 */
export function cleanPartial(
  row: CounterBucketRow,
  tolerance = RESET_TOLERANCE_KWH,
): CounterPartial | null {
  if (row.count <= 1) return { first: row.first, last: row.last, increase: 0 };
  if (row.min >= row.first - tolerance && row.max <= row.last + tolerance) {
    return { first: row.first, last: row.last, increase: row.last - row.first };
  }
  return null;
}

/** Values `v` of a readings answer, in order. */
export function valuesFrom(answer: ExecAnswer): number[] {
  return answer.rows.flatMap((r) => (typeof r.v === "number" ? [r.v] : []));
}

/** The `ts` of the first row, or null. */
export function firstTsFrom(answer: ExecAnswer): number | null {
  const ts = answer.rows[0]?.ts;
  return typeof ts === "number" ? ts : null;
}

/** The measurement values of a `latestValuesSql()` answer (null keys left out). */
export function latestValuesFrom(answer: ExecAnswer): Partial<Record<MeasurementKey, number>> {
  const row = answer.rows[0] ?? {};
  const out: Partial<Record<MeasurementKey, number>> = {};
  for (const k of MEASUREMENT_KEYS) if (typeof row[k] === "number") out[k] = row[k] as number;
  return out;
}

/** Applied and committed WAL transactions of a `walStatusSql()` answer. */
export function walStatusFrom(
  answer: ExecAnswer,
): { writerTxn: number; sequencerTxn: number } | null {
  const row = answer.rows[0];
  if (!row) return null;
  return { writerTxn: Number(row.writerTxn), sequencerTxn: Number(row.sequencerTxn) };
}

/**
 * The endpoint of QuestDB given as a URL (`http://host:9000`, `https://user:pass@host`;
 * port 9000 by default) or as a client configuration string (`http::addr=host:9000;`
 * with optional `username`/`password` or `token`). The ILP sender uses protocol version 1
 * (text) and no automatic flushing: the store sends one batch per HTTP request, which
 * QuestDB commits as one transaction.
 */
export function questDbEndpoint(url: string): QuestDbEndpoint {
  const { proto, host, port, user, pass, token } = parseQuestDbAddress(url);
  const esc = (v: string) => v.replaceAll(";", ";;");
  let senderConfig = `${proto}::addr=${host}:${port};protocol_version=1;auto_flush=off;`;
  let authorization: string | undefined;
  if (token) {
    senderConfig += `token=${esc(token)};`;
    authorization = `Bearer ${token}`;
  } else if (user) {
    senderConfig += `username=${esc(user)};password=${esc(pass)};`;
    authorization = `Basic ${btoa(`${user}:${pass}`)}`;
  }
  return { senderConfig, restBase: `${proto}://${host}:${port}`, authorization };
}

interface QuestDbAddress {
  proto: "http" | "https";
  host: string;
  port: string;
  user: string;
  pass: string;
  token: string;
}

function parseQuestDbAddress(url: string): QuestDbAddress {
  const conf = /^(https?)::(.*)$/s.exec(url);
  if (conf) {
    const settings = new Map<string, string>();
    for (const part of conf[2].replaceAll(";;", "\0").split(";")) {
      if (!part) continue;
      const eq = part.indexOf("=");
      if (eq < 1) throw new TypeError(`QuestDB configuration has a setting without '=': ${part}`);
      settings.set(part.slice(0, eq), part.slice(eq + 1).replaceAll("\0", ";"));
    }
    const addr = /^([^:]+)(?::(\d+))?$/.exec(settings.get("addr") ?? "");
    if (!addr) throw new TypeError(`QuestDB configuration needs addr=host[:port]: ${url}`);
    return {
      proto: conf[1] as "http" | "https",
      host: addr[1],
      port: addr[2] ?? "9000",
      user: settings.get("username") ?? "",
      pass: settings.get("password") ?? "",
      token: settings.get("token") ?? "",
    };
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TypeError(
      `QUESTDB_URL is neither a URL nor a QuestDB configuration: ${JSON.stringify(url)}`,
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new TypeError(`QUESTDB_URL must be http:// or https://, got ${u.protocol}`);
  }
  return {
    proto: u.protocol === "https:" ? "https" : "http",
    host: u.hostname,
    port: u.port || "9000",
    user: decodeURIComponent(u.username),
    pass: decodeURIComponent(u.password),
    token: "",
  };
}
