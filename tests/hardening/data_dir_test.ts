/** The data directory is the portal user's alone: 0700, its files 0600. */
import assert from "node:assert/strict";
import { openStores } from "../../services/platform/stores.ts";
import { loadConfig } from "../../services/platform/config.ts";
import { memoryLogger } from "../../services/platform/log.ts";

Deno.test("DATA_DIR is created 0700 and the KV, SQLite and key files are 0600", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/data`;
  const stores = await openStores(loadConfig({ DATA_DIR: dir }), memoryLogger());
  try {
    assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
    const files: string[] = [];
    for await (const e of Deno.readDir(dir)) if (e.isFile) files.push(e.name);
    assert.ok(files.includes("portal.kv"), files.join(", "));
    assert.ok(files.includes("telemetry.sqlite"), files.join(", "));
    for (const f of files) {
      assert.equal((await Deno.stat(`${dir}/${f}`)).mode! & 0o077, 0, `${f} is private`);
    }
  } finally {
    await stores.close();
    await Deno.remove(root, { recursive: true });
  }
});
