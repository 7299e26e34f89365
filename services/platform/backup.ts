/**
 * A backup of a running portal: one archive (`backup_archive.ts`) of everything in its data
 * folder, made without stopping it.
 *
 * How it reaches the running portal's data: it opens the same files itself, read-only, on the
 * same machine (`deno task backup` with the portal's `DATA_DIR`, or the portal's own schedule,
 * `backup_schedule.ts`). Deno KV's file and the telemetry store are SQLite databases in WAL
 * mode: each is copied with `VACUUM INTO` inside one read transaction (`db/snapshot.ts`), a
 * consistent state that never blocks the portal's writes. No endpoint serves the data, so no
 * token can leak it. The other files (the token secret, the certificate authority, the MQTT
 * ingest password, the Openpay sandbox's state, the outbox folder) are read whole: each is
 * written whole by a rename, so a read sees the old or the new one.
 */
import type { Config } from "./config.ts";
import { countStores, snapshotSqlite, type StoreCounts } from "../../db/snapshot.ts";
import { SCHEMA_VERSION, storedSchemaVersion } from "../../db/migrations.ts";
import {
  type ArchiveFile,
  DATA_PREFIX,
  MANIFEST_ENTRY,
  sha256Bytes,
  sha256File,
  writeArchive,
} from "./backup_archive.ts";
import { dirname, join, relative, resolve } from "node:path";

/** What the archive's `manifest.json` says. */
export interface BackupManifest {
  format: "portal-backup";
  /** The archive's layout; a restore refuses a later one. */
  format_version: 1;
  /** The data's schema version (`db/migrations.ts`). */
  schema_version: number;
  created_at: string;
  /** Where readings are kept: in the archive (`sqlite`), or in QuestDB (not in it). */
  telemetry: "sqlite" | "questdb";
  counts: StoreCounts;
  /** Every file of the archive but the manifest: path under `data/`, size, SHA-256 (hex). */
  files: { path: string; size: number; sha256: string }[];
}

/** The archive's name of the KV database, wherever `DENO_KV_URL` puts it. */
export const KV_ENTRY = "portal.kv";
/** The archive's name of the telemetry database. */
export const TELEMETRY_ENTRY = "telemetry.sqlite";

/** Thrown when a backup or restore cannot be done; the message says why, for the operator. */
export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefused";
  }
}

/** Whether `kvPath` is a file on this machine (not `:memory:`, not a KV Connect URL). */
export function isKvFile(kvPath: string): boolean {
  return kvPath !== ":memory:" && !/^[a-z][a-z0-9+.-]*:\/\//i.test(kvPath);
}

/** SQLite's companion files of a database. */
const companions = (path: string) => ["", "-wal", "-shm", "-journal"].map((s) => path + s);

/**
 * Writes a backup of the portal of `config` to `target` (replaced whole once written; never
 * half-written) and answers its manifest. Throws {@link BackupRefused} when the data cannot be
 * backed up from here (a KV Connect URL, no data).
 */
export async function createBackup(
  config: Config,
  target: string,
  now = Date.now(),
): Promise<BackupManifest> {
  if (!isKvFile(config.kvPath)) {
    throw new BackupRefused(
      "Deno KV is not a file here (DENO_KV_URL): back it up with its provider's tools.",
    );
  }
  const kvPath = resolve(config.kvPath);
  const telemetryPath = config.telemetry.questdbUrl
    ? null
    : resolve(config.dataDir, TELEMETRY_ENTRY);
  if (!(await exists(kvPath))) {
    throw new BackupRefused(`There is no portal data to back up: ${kvPath} does not exist.`);
  }
  const targetPath = resolve(target);
  await Deno.mkdir(dirname(targetPath), { recursive: true });
  const stage = await Deno.makeTempDir({ dir: dirname(targetPath), prefix: ".backup-" });
  try {
    const kvCopy = join(stage, KV_ENTRY);
    snapshotSqlite(kvPath, kvCopy);
    let telemetryCopy: string | null = null;
    if (telemetryPath && (await exists(telemetryPath))) {
      telemetryCopy = join(stage, TELEMETRY_ENTRY);
      snapshotSqlite(telemetryPath, telemetryCopy);
    }
    const counts = await countStores(kvCopy, telemetryCopy);
    const kv = await Deno.openKv(kvCopy);
    const schemaVersion = await storedSchemaVersion(kv).finally(() => kv.close());
    const files: ArchiveFile[] = [];
    const copies: [string, string | null][] = [
      [KV_ENTRY, kvCopy],
      [TELEMETRY_ENTRY, telemetryCopy],
    ];
    for (const [name, path] of copies) {
      if (path) files.push({ name, path, mode: 0o600, size: (await Deno.stat(path)).size });
    }
    const skip = new Set([
      ...companions(kvPath),
      ...(telemetryPath ? companions(telemetryPath) : []),
      targetPath,
      `${targetPath}.partial`,
    ]);
    const skipDirs = [stage, ...(config.backup?.dir ? [resolve(config.backup.dir)] : [])];
    for await (const file of dataFiles(resolve(config.dataDir), skip, skipDirs)) files.push(file);
    const manifest: BackupManifest = {
      format: "portal-backup",
      format_version: 1,
      schema_version: schemaVersion || SCHEMA_VERSION,
      created_at: new Date(now).toISOString(),
      telemetry: config.telemetry.questdbUrl ? "questdb" : "sqlite",
      counts,
      files: [],
    };
    for (const f of files) {
      const sha256 = f.bytes ? sha256Bytes(f.bytes) : await sha256File(f.path!);
      manifest.files.push({ path: DATA_PREFIX + f.name, size: f.size, sha256 });
    }
    const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n");
    const partial = `${targetPath}.partial`;
    await writeArchive(partial, [
      { name: MANIFEST_ENTRY, bytes: manifestBytes, size: manifestBytes.length, mode: 0o644 },
      ...files.map((f) => ({ ...f, name: DATA_PREFIX + f.name })),
    ]);
    await Deno.rename(partial, targetPath);
    return manifest;
  } finally {
    await Deno.remove(stage, { recursive: true }).catch(() => {});
  }
}

/**
 * The data folder's other files, each read whole (paths relative to `root`), but those in
 * `skip`, under `skipDirs`, temporary files of a write under way, and anything not a file.
 */
async function* dataFiles(
  root: string,
  skip: Set<string>,
  skipDirs: string[],
  dir = root,
): AsyncGenerator<ArchiveFile> {
  const entries = [];
  for await (const e of Deno.readDir(dir)) entries.push(e);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (skip.has(path) || skipDirs.some((d) => path === d || path.startsWith(d + "/"))) continue;
    if (e.isDirectory) {
      yield* dataFiles(root, skip, skipDirs, path);
    } else if (e.isFile && !/\.(tmp|partial)$|\.tmp[.-]/.test(e.name)) {
      try {
        const bytes = await Deno.readFile(path);
        const mode = ((await Deno.stat(path)).mode ?? 0o600) & 0o777;
        yield { name: relative(root, path), bytes, size: bytes.length, mode };
      } catch (err) {
        // A file removed since the folder was listed (a message sent) is not part of it.
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}
