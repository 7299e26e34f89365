/**
 * A full disk (a 2 MiB tmpfs holding the data directory, filled up) is answered 503 with its
 * reason, never 500: a request that writes KV, the health check (naming the store that cannot
 * write), the telemetry store's durable write (so ingest acknowledges nothing), and the demo's
 * seeding fails with a message. The tmpfs is mounted with `mount`, which needs root.
 */
import assert from "node:assert/strict";
import { account, call, testApp, zoneBody } from "./_helpers.ts";
import { openStores } from "../services/platform/stores.ts";
import { loadConfig } from "../services/platform/config.ts";
import { memoryLogger } from "../services/platform/log.ts";
import { DemoSeedError, seedDemo } from "../services/demo.ts";

async function run(cmd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Fills the file system of `dir` until it is full. */
async function fill(dir: string): Promise<void> {
  const chunk = new Uint8Array(16 * 1024).fill(7);
  const f = await Deno.open(`${dir}/filler`, { write: true, create: true });
  try {
    for (;;) await f.write(chunk);
  } catch (e) {
    assert.match(String(e), /No space left on device/);
  } finally {
    f.close();
  }
}

Deno.test("a full disk answers 503 with its reason: KV writes, /health, telemetry writes, the demo's seeding", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/data`;
  await Deno.mkdir(dir);
  await run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir);
  try {
    const stores = await openStores(loadConfig({ DATA_DIR: dir }), memoryLogger());
    const { kv, telemetry } = stores.deps;
    const t = await testApp({ kv, telemetry });
    try {
      const admin = await account(t, "admin");
      const ok = await call(t, "GET", "/health");
      assert.equal(ok.status, 200);
      await fill(dir);

      const res = await call(t, "POST", "/api/zones", { token: admin.token, json: zoneBody() });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get("retry-after"), "5");
      assert.deepEqual(await res.json(), {
        message: t.deps.i18n.t("en")("errors.disk_full"),
        detail: "disk_full",
      });

      telemetry.write([{ serial: "M1", ts: Date.now(), values: { total_power: 1 } }]);
      await assert.rejects(telemetry.sync!(), /database or disk is full/);

      const health = await call(t, "GET", "/health");
      const body = await health.json();
      assert.equal(health.status, 503, JSON.stringify(body));
      assert.equal(body.status, "failing");
      assert.partialDeepStrictEqual(body.checks, {
        kv: { ok: false, reason: "disk_full" },
        telemetry: { ok: false, reason: "disk_full" },
      });

      await assert.rejects(seedDemo(t.deps), (e) => {
        assert.ok(e instanceof DemoSeedError, String(e));
        assert.match(e.message, /demo data could not be seeded: the disk is full/);
        return true;
      });
    } finally {
      t.close();
      await stores.close().catch(() => {});
    }
  } finally {
    await run("umount", dir);
    await Deno.remove(root, { recursive: true });
  }
});
