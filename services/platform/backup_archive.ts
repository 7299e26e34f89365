/**
 * The backup archive's format: a gzip-compressed tar (POSIX ustar, through npm `tar-stream`),
 * `manifest.json` first, then each file under `data/` with the path it has in the data folder.
 * Any `tar` reads it (`tar -xzf backup.tar.gz`); the manifest is plain JSON.
 */
import tar from "tar-stream";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { createGunzip, createGzip } from "node:zlib";
import { pipeline } from "node:stream/promises";
import { Buffer } from "node:buffer";

/** The name of the manifest entry, the archive's first. */
export const MANIFEST_ENTRY = "manifest.json";
/** The folder of the archive that holds the data folder's files. */
export const DATA_PREFIX = "data/";

/** One file to put in an archive: its bytes, or the path of a file to stream. */
export interface ArchiveFile {
  name: string;
  mode: number;
  bytes?: Uint8Array;
  path?: string;
  size: number;
}

/** SHA-256 (hex) of bytes. */
export function sha256Bytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** SHA-256 (hex) of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Writes `files` as a tar.gz at `target` (created; an existing file is replaced). */
export async function writeArchive(target: string, files: ArchiveFile[]): Promise<void> {
  const pack = tar.pack();
  const writing = pipeline(pack, createGzip(), createWriteStream(target, { mode: 0o600 }));
  try {
    for (const f of files) {
      const header = { name: f.name, size: f.size, mode: f.mode, mtime: new Date(0) };
      if (f.bytes) {
        await new Promise<void>((resolve, reject) =>
          pack.entry(header, Buffer.from(f.bytes!), (e) => (e ? reject(e) : resolve()))
        );
      } else {
        const entry = pack.entry(header);
        await pipeline(createReadStream(f.path!), entry);
      }
    }
    pack.finalize();
  } catch (e) {
    pack.destroy(e as Error);
    await writing.catch(() => {});
    throw e;
  }
  await writing;
}

/** One entry of an archive as it is read: its header and its content, streamed once. */
export interface ArchiveEntry {
  name: string;
  type: string;
  size: number;
  mode: number;
  content: AsyncIterable<Uint8Array>;
}

/**
 * Reads the archive at `file`, handing each entry to `onEntry` in order (it must consume or
 * ignore `content` before resolving; what is left is skipped). Throws what `onEntry` throws,
 * or an error when the file is not a gzip-compressed tar.
 */
export async function readArchive(
  file: string,
  onEntry: (entry: ArchiveEntry) => Promise<void>,
): Promise<void> {
  const extract = tar.extract();
  const feeding = pipeline(createReadStream(file), createGunzip(), extract);
  try {
    for await (const entry of extract) {
      const h = entry.header;
      await onEntry({
        name: h.name,
        type: h.type ?? "file",
        size: h.size ?? 0,
        mode: h.mode ?? 0o600,
        content: entry as AsyncIterable<Uint8Array>,
      });
      entry.resume();
    }
  } catch (e) {
    extract.destroy();
    await feeding.catch(() => {});
    throw e;
  }
  await feeding;
}
