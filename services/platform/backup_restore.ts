/**
 * Restoring a backup (`backup.ts`) into an empty data folder. The archive is read twice: first
 * to check it whole against its manifest (every file listed, present once, of the size and
 * SHA-256 the manifest says, nothing else, no path leaving the folder), writing nothing; then
 * to write the files, checked again as they are written (an archive changed in between leaves
 * nothing behind).
 */
import type { Config } from "./config.ts";
import { SCHEMA_VERSION } from "../../db/migrations.ts";
import { type ArchiveEntry, DATA_PREFIX, MANIFEST_ENTRY, readArchive } from "./backup_archive.ts";
import { type BackupManifest, BackupRefused, isKvFile, KV_ENTRY } from "./backup.ts";
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import type { Buffer } from "node:buffer";

/** Where a file's chunks are written while the archive is read. */
interface FileSink {
  chunk(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
}

/** Reads the whole of `content`, answering its size and SHA-256; each chunk goes to `sink`. */
async function digest(
  content: AsyncIterable<unknown>,
  sink?: (chunk: Buffer) => Promise<void>,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of content as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (sink) await sink(chunk);
  }
  return { size, sha256: hash.digest("hex") };
}

const refused = (file: string, why: string) =>
  new BackupRefused(`The archive ${file} cannot be restored: ${why}. Nothing was restored.`);

/** The manifest of an archive's first entry, or why it is not one. */
async function readManifest(file: string, entry: ArchiveEntry): Promise<BackupManifest> {
  if (entry.name !== MANIFEST_ENTRY) throw refused(file, "it does not start with a manifest");
  const chunks: Uint8Array[] = [];
  for await (const c of entry.content) chunks.push(c as Uint8Array);
  let m: BackupManifest;
  try {
    m = JSON.parse(new TextDecoder().decode(await new Blob(chunks as BlobPart[]).bytes()));
  } catch {
    throw refused(file, "its manifest is not JSON");
  }
  if (m?.format !== "portal-backup" || !Array.isArray(m.files)) {
    throw refused(file, "it is not a backup of the portal");
  }
  if (m.format_version !== 1) {
    throw refused(file, `it has a layout this version does not know (${m.format_version})`);
  }
  if (typeof m.schema_version !== "number" || m.schema_version > SCHEMA_VERSION) {
    throw refused(
      file,
      `it was made by a newer version of the portal (schema ${m.schema_version}, this version ` +
        `knows up to ${SCHEMA_VERSION}); restore it with that version`,
    );
  }
  return m;
}

/** The data folder's relative path of an entry, or null when it would leave the folder. */
function safePath(name: string): string | null {
  if (!name.startsWith(DATA_PREFIX)) return null;
  const rel = normalize(name.slice(DATA_PREFIX.length));
  if (rel === "" || rel === "." || rel.startsWith("/") || rel.split("/").includes("..")) {
    return null;
  }
  return rel;
}

/**
 * Reads the archive at `file` once, checking each entry against the manifest; `write`, when
 * given, receives each file's chunks as they are checked. Answers the manifest.
 */
async function walk(
  file: string,
  write?: (rel: string, mode: number) => FileSink,
): Promise<BackupManifest> {
  let manifest: BackupManifest | null = null;
  const seen = new Set<string>();
  try {
    await readArchive(file, async (entry) => {
      if (manifest === null) {
        manifest = await readManifest(file, entry);
        return;
      }
      const listed = manifest.files.find((f) => f.path === entry.name);
      const rel = safePath(entry.name);
      if (!listed || rel === null || entry.type !== "file" || seen.has(entry.name)) {
        throw refused(file, `it holds ${entry.name}, which its manifest does not list`);
      }
      seen.add(entry.name);
      const sink = write?.(rel, entry.mode);
      const got = await digest(entry.content, sink?.chunk);
      await sink?.end();
      if (got.size !== listed.size || got.sha256 !== listed.sha256) {
        throw refused(file, `${entry.name} does not match its checksum in the manifest`);
      }
    });
  } catch (e) {
    if (e instanceof BackupRefused) throw e;
    throw refused(file, `it is not a readable backup (${e instanceof Error ? e.message : e})`);
  }
  if (manifest === null) throw refused(file, "it is empty");
  const missing = (manifest as BackupManifest).files.find((f) => !seen.has(f.path));
  if (missing) throw refused(file, `${missing.path}, listed in its manifest, is missing`);
  return manifest;
}

/** Checks the archive at `file` against its manifest without writing anything. */
export function verifyBackup(file: string): Promise<BackupManifest> {
  return walk(file);
}

/**
 * Restores the archive at `file` into the data folder of `config`, which must be empty (or
 * absent), as must be the KV file; answers the manifest. Throws {@link BackupRefused} (and
 * writes nothing) when the folder is not empty or the archive does not match its manifest.
 */
export async function restoreBackup(file: string, config: Config): Promise<BackupManifest> {
  if (!isKvFile(config.kvPath)) {
    throw new BackupRefused("Deno KV is not a file here (DENO_KV_URL): restore it with its tools.");
  }
  const dataDir = resolve(config.dataDir);
  const kvPath = resolve(config.kvPath);
  if (!(await isEmptyDir(dataDir))) {
    throw new BackupRefused(
      `The data folder ${dataDir} is not empty: a backup is restored only into an empty one. ` +
        "Nothing was restored.",
    );
  }
  if (await exists(kvPath)) {
    throw new BackupRefused(`${kvPath} exists: remove it first. Nothing was restored.`);
  }
  await verifyBackup(file);
  const written: string[] = [];
  const createdDir = !(await exists(dataDir));
  await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });
  let open: FileSink | null = null;
  try {
    return await walk(file, (rel, mode) => {
      const dest = rel === KV_ENTRY ? kvPath : join(dataDir, rel);
      Deno.mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
      written.push(dest);
      const out = createWriteStream(dest, { mode: mode & 0o777 || 0o600, flags: "wx" });
      const sink: FileSink = {
        chunk: (chunk) => new Promise((res, rej) => out.write(chunk, (e) => (e ? rej(e) : res()))),
        end: () => {
          open = null;
          return new Promise<void>((res, rej) => {
            out.once("error", rej);
            out.end(res);
          });
        },
      };
      open = sink;
      return sink;
    });
  } catch (e) {
    await (open as FileSink | null)?.end().catch(() => {});
    for (const path of written) await Deno.remove(path).catch(() => {});
    if (createdDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    throw e;
  }
}

/** True when `dir` is absent or an empty folder; throws when it is something else. */
async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return true;
    throw e;
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
