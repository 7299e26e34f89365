/**
 * A telemetry store whose file is deleted while ingest runs: the embedded broker's PUBACK
 * waits for a durable commit, and a commit into a file that is gone is refused, so a reading
 * published then is not acknowledged (the meter keeps it and sends it again), and ingest's
 * health says it is failing.
 */
import assert from "node:assert/strict";
import { openSqliteStore } from "../../db/telemetry/sqlite.ts";
import { attachedIngest, notifyFrame, testSensor } from "./_helpers.ts";
import { healthReport } from "../../ingest/health.ts";
import { summarizeHealth } from "../../core/ingest_health.ts";

const A = testSensor("GONE-A");

Deno.test("embedded broker: a reading is not acknowledged once the store's file was deleted", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/telemetry.sqlite`;
  const store = openSqliteStore(file, { worker: true });
  const { ingest, broker, meter } = await attachedIngest(A, store, "gone");
  try {
    const base = Math.floor(Date.now() / 1000) - 60;
    await meter.publishAsync(`${A.prefix}/events/rpc`, notifyFrame(base + 1, 1), { qos: 1 });
    await store.flush();
    assert.equal((await store.latest(A.serial))?.values.total_power, 1);

    await Deno.remove(file);
    let acked = false;
    const closed = new Promise<void>((resolve) => meter.once("close", () => resolve()));
    const publish = meter.publishAsync(`${A.prefix}/events/rpc`, notifyFrame(base + 2, 2), {
      qos: 1,
    })
      .then(() => acked = true, () => {});
    // Either the PUBACK comes (the old way: into the deleted file) or the connection closes.
    await Promise.race([closed, publish]);
    assert.equal(acked, false, "no PUBACK for a reading written to a deleted file");
    await assert.rejects(store.check!(), /is gone/);
    // Ingest's health says so (the admin's system page), not "running".
    assert.equal(ingest.stats().storeFailing, true);
    const report = healthReport(ingest.stats(), {
      instance: "gone-ingest",
      host: "h",
      pid: 1,
      startedAt: 0,
    }, Date.now());
    assert.equal(summarizeHealth([report], Date.now()).status, "failing");
  } finally {
    meter.end(true);
    await ingest.stop();
    await broker.close();
    await store.close().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
