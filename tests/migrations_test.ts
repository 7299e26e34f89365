/**
 * The schema version: a data folder of the release before versions were kept (its accounts,
 * zones and bills as that release wrote them, no version) opens at this release's version with
 * its data as it was; steps run once, in order, even with two processes starting together; a
 * folder of a newer release is refused. And the portal's own rotated backups.
 */
import assert from "node:assert/strict";
import {
  migrate,
  type Migration,
  SCHEMA_VERSION,
  SchemaTooNew,
  storedSchemaVersion,
} from "../db/migrations.ts";
import { openStores } from "../services/platform/stores.ts";
import { loadConfig } from "../services/platform/config.ts";
import { createLogger } from "../services/platform/log.ts";
import { account, testApp } from "./_helpers.ts";
import { backupAndRotate } from "../services/platform/backup_schedule.ts";
import { verifyBackup } from "../services/platform/backup_restore.ts";

Deno.test("a data folder without a schema version opens migrated, its data unchanged", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    // The previous release's shape: the same keys, no ["schema", "version"].
    const kv = await Deno.openKv(`${dataDir}/portal.kv`);
    await kv.set(["users", 1], { id: 1, email: "a@b.mx" });
    await kv.set(["zones", 1], { id: 1, name: "Centro" });
    kv.close();
    const config = loadConfig({ DATA_DIR: dataDir });
    const stores = await openStores(config, createLogger("error"));
    try {
      const kv2 = stores.deps.kv;
      assert.equal(await storedSchemaVersion(kv2), SCHEMA_VERSION);
      assert.deepEqual((await kv2.get(["users", 1])).value, { id: 1, email: "a@b.mx" });
      assert.deepEqual((await kv2.get(["zones", 1])).value, { id: 1, name: "Centro" });
    } finally {
      await stores.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("steps run once and in order, with two starts at once; a newer folder is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const ran: number[] = [];
    const step = (version: number): Migration => ({
      version,
      name: `step ${version}`,
      run: async (kv) => {
        ran.push(version);
        await kv.set(["shape"], version);
      },
    });
    const steps = [step(1), step(2), step(3)];
    await kv.set(["schema", "version"], 1);
    const [a, b] = await Promise.all([migrate(kv, steps), migrate(kv, steps)]);
    assert.deepEqual(ran, [2, 3]);
    assert.deepEqual([...a.applied, ...b.applied].sort(), ["step 2", "step 3"]);
    assert.equal((await kv.get(["shape"])).value, 3);
    assert.deepEqual((await migrate(kv, steps)).applied, []);
    await assert.rejects(() => migrate(kv, steps.slice(0, 2)), SchemaTooNew);
  } finally {
    kv.close();
  }
});

Deno.test("BACKUP_DIR keeps the newest BACKUP_KEEP backups, each a sound archive", async () => {
  const dataDir = await Deno.makeTempDir();
  const backupDir = `${dataDir}/backups`;
  const config = loadConfig({ DATA_DIR: dataDir, BACKUP_DIR: backupDir, BACKUP_KEEP: "2" });
  const stores = await openStores(config, createLogger("error"));
  const t = await testApp({ ...stores.deps });
  try {
    await account(t, "admin");
    let now = Date.UTC(2026, 0, 1);
    const deps = { ...stores.deps, now: () => now };
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await backupAndRotate(deps, backupDir, 2));
      now += 3_600_000;
    }
    const names = [...Deno.readDirSync(backupDir)].map((e) => e.name).sort();
    assert.deepEqual(names, made.slice(1).map((p) => p.slice(backupDir.length + 1)));
    const manifest = await verifyBackup(made[2]);
    assert.equal(manifest.counts.users, 1);
    assert.ok(manifest.files.every((f) => !f.path.includes("backups/")), "no backup in a backup");
  } finally {
    t.close = () => {};
    await stores.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
