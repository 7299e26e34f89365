/**
 * The portal checks its telemetry store before it starts: a damaged file, or a missing one
 * while KV records that a store existed, stops the start with a message saying what to do,
 * instead of serving zeros or silently starting an empty store (all history gone).
 */
import assert from "node:assert/strict";
import { forgetTelemetry, openStores, TelemetryStoreRefused } from "../services/platform/stores.ts";
import { loadConfig } from "../services/platform/config.ts";
import { memoryLogger } from "../services/platform/log.ts";

const T0 = Date.UTC(2024, 0, 10);

/** A data directory whose store was opened once and holds a day of readings. */
async function usedDataDir() {
  const dir = await Deno.makeTempDir();
  const config = loadConfig({ DATA_DIR: dir });
  const stores = await openStores(config, memoryLogger());
  const { telemetry } = stores.deps;
  for (let i = 0; i < 24 * 60; i++) {
    telemetry.write([{ serial: "M1", ts: T0 + i * 60_000, values: { total_energy_kwh: i } }]);
  }
  await telemetry.flush();
  await stores.close();
  return { dir, config, file: `${dir}/telemetry.sqlite` };
}

async function refusal(config: ReturnType<typeof loadConfig>): Promise<TelemetryStoreRefused> {
  try {
    const stores = await openStores(config, memoryLogger());
    await stores.close();
  } catch (e) {
    assert.ok(e instanceof TelemetryStoreRefused, String(e));
    return e;
  }
  throw new assert.AssertionError({ message: "the stores opened" });
}

Deno.test("start refuses a telemetry store whose file is damaged, naming it and what to do", async () => {
  const { dir, config, file } = await usedDataDir();
  try {
    const bytes = await Deno.readFile(file);
    for (let i = 8192; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    await Deno.writeFile(file, bytes);
    const e = await refusal(config);
    assert.match(e.message, new RegExp(`telemetry store ${file} is damaged`));
    assert.match(e.message, /restore the file from a backup/);
    // KV was closed again: the data directory opens once the file is moved away... and then
    // only after the store's record is forgotten, since a store existed there.
    await Deno.rename(file, `${file}.damaged`);
    assert.match((await refusal(config)).message, /is missing, but it existed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("start refuses when KV says a telemetry store existed and its file is missing", async () => {
  const { dir, config, file } = await usedDataDir();
  try {
    await Deno.remove(file);
    await Deno.remove(`${file}-wal`).catch(() => {});
    await Deno.remove(`${file}-shm`).catch(() => {});
    const e = await refusal(config);
    assert.match(e.message, new RegExp(`telemetry store ${file} is missing, but it existed`));
    assert.match(e.message, /deno task telemetry-forget/);
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound, "no empty store was made");
    // Forgetting the store's record is the way to start anew.
    assert.equal(await forgetTelemetry(config), true);
    const stores = await openStores(config, memoryLogger());
    try {
      assert.equal(await stores.deps.telemetry.latest("M1"), null);
    } finally {
      await stores.close();
    }
    // That new store is recorded in turn.
    await Deno.remove(file);
    await refusal(config);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts exits with status 2 and the reason on a damaged telemetry store", async () => {
  const { dir, file } = await usedDataDir();
  try {
    await Deno.writeFile(file, new TextEncoder().encode("garbage ".repeat(4096)));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      env: {
        DATA_DIR: dir,
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        MQTT_PORT: String(port + 1),
        LOG_LEVEL: "error",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, new RegExp(`The telemetry store ${file} is damaged`));
    assert.doesNotMatch(new TextDecoder().decode(out.stdout), /Portal ready/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
