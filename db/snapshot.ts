/**
 * Consistent copies of the portal's SQLite files while the portal writes to them, and what a
 * copy holds (the counts a backup's manifest records).
 *
 * Deno KV's local store is a SQLite database in WAL mode, as is the telemetry store. A copy is
 * made with SQLite's `VACUUM INTO` over a second, read-only connection: it reads the whole
 * database inside one read transaction, so it sees one committed state (every atomic commit
 * whole or not at all), and in WAL mode a reader never blocks the writers, nor they it. Copying
 * the file with `cp` would not do: pages still in the `-wal` file, or written during the copy,
 * would be missing or torn.
 */
import { DatabaseSync } from "node:sqlite";
import { ROLL_TABLE } from "./telemetry/_sqlite_schema.ts";

/** How long the copy waits for a lock held by a checkpoint or a writer that changes mode. */
const BUSY_TIMEOUT_MS = 10_000;

/** Writes a consistent copy of the SQLite database at `source` to `target` (a new file). */
export function snapshotSqlite(source: string, target: string): void {
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.prepare("VACUUM INTO ?").run(target);
  } finally {
    db.close();
  }
}

/** What a copy of the stores holds. */
export interface StoreCounts {
  users: number;
  devices: number;
  zones: number;
  bills: number;
  payments: number;
  /** Raw readings merged into the telemetry rows (a journal batch not yet merged is not counted). */
  readings: number;
  /** Rollup rows of every bucket (15 min, hour, day, month). */
  reading_rollups: number;
}

/** The KV prefixes each count reads (their layout: `db/users.ts`, `devices.ts`, …). */
const KV_COUNTS: Record<"users" | "devices" | "zones" | "payments", Deno.KvKey> = {
  users: ["users"],
  devices: ["devices"],
  zones: ["zones"],
  payments: ["openpay_charges"],
};
/** Unit and station bills, each listed once by id (`db/_bill_keys.ts`). */
const BILL_PREFIXES: Deno.KvKey[] = [["unit_bill_ids"], ["customer_bill_ids"]];

async function countPrefix(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix })) n++;
  return n;
}

/** Counts the records of the KV at `kvFile` and the telemetry database at `telemetryFile`. */
export async function countStores(
  kvFile: string,
  telemetryFile: string | null,
): Promise<StoreCounts> {
  const kv = await Deno.openKv(kvFile);
  const counts: StoreCounts = {
    users: 0,
    devices: 0,
    zones: 0,
    bills: 0,
    payments: 0,
    readings: 0,
    reading_rollups: 0,
  };
  try {
    for (const [name, prefix] of Object.entries(KV_COUNTS)) {
      counts[name as keyof typeof KV_COUNTS] = await countPrefix(kv, prefix);
    }
    for (const prefix of BILL_PREFIXES) counts.bills += await countPrefix(kv, prefix);
  } finally {
    kv.close();
  }
  if (telemetryFile === null) return counts;
  const db = new DatabaseSync(telemetryFile, { readOnly: true });
  try {
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as {
        name: string;
      }[]).map((r) => r.name),
    );
    // Raw readings: the chunks' counts, and rows of the earlier layout (_sqlite_chunks.ts).
    if (tables.has("raw")) counts.readings = count("SELECT count(*) AS n FROM raw");
    if (tables.has("chunks")) {
      counts.readings += count("SELECT coalesce(sum(n), 0) AS n FROM chunks");
    }
    for (const t of Object.values(ROLL_TABLE)) {
      if (tables.has(t)) counts.reading_rollups += count(`SELECT count(*) AS n FROM ${t}`);
    }
  } finally {
    db.close();
  }
  return counts;
}
