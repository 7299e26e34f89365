import assert from "node:assert/strict";
import { runIngest } from "../../ingest/run.ts";
import { simIdentity } from "../../ingest/sim.ts";
import { sensorTopicPrefix } from "../../core/devices.ts";
import {
  embeddedBroker,
  INGEST_CREDENTIALS,
  MemoryDirectory,
  MemoryStatus,
  mosquittoBroker,
  sqliteStore,
  waitFor,
} from "./_helpers.ts";

const ROOT = new URL("../../", import.meta.url);

function simMeters(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const id = simIdentity(i + 1);
    return { ...id, kind: "sensor" as const, prefix: sensorTopicPrefix(id.serial) };
  });
}

Deno.test("scripts/simulate.ts: meters with their own credentials reach ingest through the embedded broker", async () => {
  const directory = new MemoryDirectory(simMeters(3));
  const status = new MemoryStatus();
  const store = sqliteStore();
  const lines: Record<string, unknown>[] = [];
  const log = { log: (level: string, message: string) => void lines.push({ level, message }) };
  const broker = await embeddedBroker(directory);
  const running = runIngest({ directory, status, store, log }, {
    url: broker.url,
    ...INGEST_CREDENTIALS,
    clientId: "ingest-simulate-test",
    batchMs: 10,
    flushMs: 20,
  });
  try {
    await running.ingest.ready;
    const sim = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "scripts/simulate.ts",
        "--url",
        broker.url,
        "--meters",
        "3",
        "--interval-ms",
        "200",
        "--seconds",
        "1.2",
        "--drop-chance",
        "0",
        "--json",
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(sim.stdout);
    assert.equal(sim.code, 0, new TextDecoder().decode(sim.stderr));
    const final = JSON.parse(stdout.trim().split("\n").at(-1)!);
    assert.equal(final.final, true);
    assert.equal(final.meters, 3);
    assert.equal(final.refused, 0);
    assert.ok(final.acked >= 3 * 4, `${final.acked} messages acknowledged`);
    await waitFor(() => running.ingest.stats().received >= final.acked + 3, "every message");
    await running.ingest.flush();
    for (const d of simMeters(3)) {
      const latest = await store.latest(d.serial);
      assert.ok(latest && latest.values.total_energy_kwh! > 0, `${d.serial} has readings`);
    }
    assert.equal(Object.values(running.ingest.stats().dropped).reduce((a, b) => a + b), 0);
    assert.ok(lines.some((l) => l.message === "ingest subscribed"));
  } finally {
    await running.stop();
    await store.close();
    await broker.close();
  }
});

Deno.test("scripts/ingest.ts: starts on its own, subscribes, and stops on SIGTERM", async () => {
  const broker = await mosquittoBroker();
  const dataDir = await Deno.makeTempDir({ prefix: "ingest-script-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/ingest.ts"],
    cwd: ROOT,
    env: {
      DATA_DIR: dataDir,
      MQTT_URL: broker.url,
      INGEST_CLIENT_ID: "ingest-script-test",
      LOG_LEVEL: "info",
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const deadline = Date.now() + 20_000;
    while (!log.includes('"ingest subscribed"')) {
      assert.ok(Date.now() < deadline, `no "ingest subscribed" line:\n${log}`);
      const { value, done } = await reader.read();
      if (done) break;
      log += value;
    }
    assert.match(log, /"ingest subscribed"/);
    child.kill("SIGTERM");
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      log += value;
    }
    const status = await child.status;
    assert.equal(status.code, 0, log);
    assert.match(log, /"ingest stopped"/);
  } finally {
    reader.releaseLock();
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await child.status;
    await child.stderr.cancel().catch(() => {});
    await broker.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
