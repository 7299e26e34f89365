/**
 * The SQLite store's file: checked before the store opens on it (SQLite's quick check and the
 * tables a telemetry store has), and watched while it is open: a file deleted or replaced
 * under the store (no file, or another one, at its path) makes every later write and read
 * fail, instead of going on in a file that nobody will open again.
 */
import { DatabaseSync } from "node:sqlite";
import { messageOf, TelemetryStoreRefused, TelemetryUnavailableError } from "./mod.ts";
import { ROLL_TABLE } from "./_sqlite_schema.ts";

/**
 * Tables every telemetry database has; `journal` and `chunks` came later and are added when
 * missing (`raw` is the earlier layout of raw samples, read beside the chunks).
 */
const REQUIRED_TABLES = ["devices", "raw", "latest", "meta", ...Object.values(ROLL_TABLE)];
const KNOWN_TABLES = new Set([...REQUIRED_TABLES, "journal", "chunks"]);

/**
 * Throws {@link TelemetryStoreRefused} when the file at `path` is not a sound telemetry
 * database: SQLite cannot read it, its quick check finds damage, or its tables are not a
 * telemetry store's. A missing or empty file passes (a new store is made there).
 */
export function verifyDatabaseFile(path: string): void {
  try {
    if (Deno.statSync(path).size === 0) return;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  let problem: string | null;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    const verdict = (db.prepare("PRAGMA quick_check").all() as { quick_check: string }[])
      .map((r) => r.quick_check);
    problem = verdict.length === 1 && verdict[0] === "ok"
      ? schemaProblem(db)
      : `SQLite's check found: ${verdict.slice(0, 3).join("; ")}`;
  } catch (e) {
    problem = `SQLite cannot read it: ${messageOf(e)}`;
  } finally {
    db?.close();
  }
  if (problem === null) return;
  throw new TelemetryStoreRefused(
    `The telemetry store ${path} is damaged (${problem}). The portal does not start on a ` +
      "damaged store, so that no reading is lost or shown wrong: restore the file from a " +
      "backup, or move it away to start with an empty store (its history is then gone).",
  );
}

/** What is wrong with the tables of a database that passed SQLite's check, or null. */
function schemaProblem(db: DatabaseSync): string | null {
  const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as {
    name: string;
  }[]).map((r) => r.name).filter((t) => !t.startsWith("sqlite_"));
  if (tables.length === 0) return null;
  const foreign = tables.filter((t) => !KNOWN_TABLES.has(t));
  if (foreign.length > 0) return `it holds tables no telemetry store has: ${foreign.join(", ")}`;
  const missing = REQUIRED_TABLES.filter((t) => !tables.includes(t));
  if (missing.length > 0) return `its tables ${missing.join(", ")} are missing`;
  const rawColumns = (db.prepare("SELECT name FROM pragma_table_info('raw')").all() as {
    name: string;
  }[]).map((r) => r.name);
  if (!rawColumns.includes("sid") || !rawColumns.includes("ts")) {
    return `its raw table has other columns: ${rawColumns.join(", ")}`;
  }
  return null;
}

/** The identity of the file at `path` (device and inode). */
export function fileIdentity(path: string): string {
  const st = Deno.statSync(path);
  return `${st.dev}:${st.ino}`;
}

/**
 * Throws {@link TelemetryUnavailableError} unless the file at `path` is still the one of
 * `identity` (see {@link fileIdentity}): one `stat`, cheap beside any query.
 */
export function checkFileIdentity(path: string, identity: string): void {
  let now: string;
  try {
    now = fileIdentity(path);
  } catch (e) {
    throw new TelemetryUnavailableError(
      `the telemetry database file ${path} is gone (deleted while the store was open): ` +
        messageOf(e),
    );
  }
  if (now !== identity) {
    throw new TelemetryUnavailableError(
      `the telemetry database file ${path} was replaced by another file while the store was open`,
    );
  }
}
