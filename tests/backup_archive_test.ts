/**
 * What a restore refuses, writing nothing: an archive whose entries leave the data folder, hold
 * a file the manifest does not list, miss one it lists, come from a newer version, or are not
 * a backup at all. And a backup of a portal whose KV file lives outside its data folder
 * restores the KV to where `DENO_KV_URL` says.
 */
import assert from "node:assert/strict";
import { sha256Bytes, writeArchive } from "../services/platform/backup_archive.ts";
import { BackupRefused, createBackup } from "../services/platform/backup.ts";
import { restoreBackup } from "../services/platform/backup_restore.ts";
import { loadConfig } from "../services/platform/config.ts";
import { openStores } from "../services/platform/stores.ts";
import { createLogger } from "../services/platform/log.ts";
import { SCHEMA_VERSION } from "../db/migrations.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** An archive of `files` with a manifest listing `listed` (default: the same files). */
async function archive(
  path: string,
  files: Record<string, string>,
  o: { listed?: Record<string, string>; schema?: number } = {},
) {
  const listed = o.listed ?? files;
  const manifest = {
    format: "portal-backup",
    format_version: 1,
    schema_version: o.schema ?? SCHEMA_VERSION,
    created_at: new Date(0).toISOString(),
    telemetry: "sqlite",
    counts: {},
    files: Object.entries(listed).map(([name, text]) => ({
      path: name,
      size: bytes(text).length,
      sha256: sha256Bytes(bytes(text)),
    })),
  };
  const entry = (name: string, text: string) => ({
    name,
    bytes: bytes(text),
    size: bytes(text).length,
    mode: 0o600,
  });
  await writeArchive(path, [
    entry("manifest.json", JSON.stringify(manifest)),
    ...Object.entries(files).map(([n, t]) => entry(n, t)),
  ]);
}

async function refusedWith(file: string, dataDir: string, pattern: RegExp) {
  await assert.rejects(
    () => restoreBackup(file, loadConfig({ DATA_DIR: dataDir })),
    (e) => e instanceof BackupRefused && pattern.test(e.message),
  );
  assert.equal(await Deno.stat(dataDir).then(() => true, () => false), false, "nothing written");
}

Deno.test("a restore refuses archives that do not match their manifest, writing nothing", async () => {
  const dir = await Deno.makeTempDir();
  const target = `${dir}/restored`;
  const file = `${dir}/a.tar.gz`;
  try {
    await archive(file, { "data/../escaped.txt": "x" });
    await refusedWith(file, target, /data\/\.\.\/escaped\.txt, which its manifest does not list/);
    assert.equal(await Deno.stat(`${dir}/escaped.txt`).then(() => true, () => false), false);

    await archive(file, { "data/secret.key": "s", "data/extra": "e" }, {
      listed: { "data/secret.key": "s" },
    });
    await refusedWith(file, target, /data\/extra, which its manifest does not list/);

    await archive(file, { "data/secret.key": "s" }, {
      listed: { "data/secret.key": "s", "data/ca.key": "k" },
    });
    await refusedWith(file, target, /data\/ca\.key, listed in its manifest, is missing/);

    await archive(file, { "data/secret.key": "s" }, { schema: SCHEMA_VERSION + 1 });
    await refusedWith(file, target, /made by a newer version of the portal/);

    await Deno.writeTextFile(file, "not an archive");
    await refusedWith(file, target, /not a readable backup/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a KV file outside the data folder is backed up and restored where DENO_KV_URL says", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = loadConfig({ DATA_DIR: `${dir}/data`, DENO_KV_URL: `${dir}/elsewhere.kv` });
    const stores = await openStores(config, createLogger("error"));
    await stores.deps.kv.set(["zones", 1], { id: 1, name: "Centro" });
    const manifest = await createBackup(config, `${dir}/b.tar.gz`);
    await stores.close();
    assert.equal(manifest.counts.zones, 1);
    assert.deepEqual(
      manifest.files.map((f) => f.path).sort(),
      ["data/ca.key", "data/ca.pem", "data/portal.kv", "data/secret.key", "data/telemetry.sqlite"],
    );
    const into = loadConfig({ DATA_DIR: `${dir}/new`, DENO_KV_URL: `${dir}/new.kv` });
    await restoreBackup(`${dir}/b.tar.gz`, into);
    const kv = await Deno.openKv(`${dir}/new.kv`);
    assert.deepEqual((await kv.get(["zones", 1])).value, { id: 1, name: "Centro" });
    kv.close();
    assert.equal(
      await Deno.readTextFile(`${dir}/new/secret.key`),
      await Deno.readTextFile(`${dir}/data/secret.key`),
    );
    await assert.rejects(
      () => restoreBackup(`${dir}/b.tar.gz`, into),
      (e) => e instanceof BackupRefused && /is not empty/.test(e.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
