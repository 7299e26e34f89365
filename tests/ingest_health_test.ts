/**
 * Ingest health end to end: a real ingest on the embedded broker publishes its counters
 * into Deno KV, and the system uptime page and `GET /api/measurements/ingest-health` show
 * messages per minute and dropped messages by reason; a stopped ingest, a silent one and
 * none at all render their own states.
 */
import assert from "node:assert/strict";
import { account, appTest, call, type TestApp, testApp } from "./_helpers.ts";
import { runIngest } from "../ingest/run.ts";
import { publishIngestHealth } from "../db/ingest_health.ts";
import { DROP_REASONS, HEALTH_STALE_MS, type IngestHealth } from "../core/ingest_health.ts";
import {
  connectMeters,
  embeddedBroker,
  INGEST_CREDENTIALS,
  MemoryDirectory,
  MemoryStatus,
  sqliteStore,
  testSensor,
  waitFor,
} from "./ingest/_helpers.ts";

/** The text of the element with `data-testid` (tags stripped, spaces collapsed). */
function testid(html: string, id: string, length = 300): string {
  const at = html.indexOf(`data-testid="${id}"`);
  assert.ok(at >= 0, `data-testid="${id}" is on the page`);
  const rest = html.slice(html.indexOf(">", at) + 1);
  return rest.slice(0, length).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

/** The first number in the cell of `data-testid`. */
function cell(html: string, id: string): number {
  const m = testid(html, id, 80).match(/^[\d,.]+/);
  assert.ok(m, `a number in ${id}`);
  return Number(m[0].replace(/[,.]/g, ""));
}

async function health(t: TestApp, token: string): Promise<IngestHealth> {
  const res = await call(t, "GET", "/api/measurements/ingest-health", { token });
  assert.equal(res.status, 200);
  return await res.json();
}

async function statsPage(t: TestApp, token: string): Promise<string> {
  const res = await call(t, "GET", "/admin/stats", { token });
  assert.equal(res.status, 200);
  return await res.text();
}

Deno.test("a running ingest's drops by reason show on /admin/stats and in the ingest-health API", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  const good = testSensor("HEALTH-GOOD");
  const bad = testSensor("HEALTH-BAD");
  const directory = new MemoryDirectory([good, bad]);
  const store = sqliteStore();
  const broker = await embeddedBroker(directory);
  const running = runIngest(
    { directory, status: new MemoryStatus(), store, log: t.deps.log, kv: t.deps.kv },
    {
      url: broker.url,
      ...INGEST_CREDENTIALS,
      clientId: "ingest-health-a",
      batchMs: 10,
      flushMs: 20,
      statsLogMs: 0,
      healthMs: 50,
    },
  );
  let stopped = false;
  try {
    await running.ingest.ready;
    let clock = Date.now();
    const [g, x] = await connectMeters(broker, [good, bad], {
      now: () => (clock += 1_000),
      statusEvery: 0,
    });
    try {
      let sent = 2; // the two online messages
      for (let i = 0; i < 3; i++) sent += await g.tick();
      await x.publish(`${bad.prefix}/status/em:0`, '{"a_voltage": 230,');
      await x.publish(`${bad.prefix}/status/em:0`, '{"a_voltage": 229,');
      await x.publish(`${bad.prefix}/status/em:0`, '{"a_voltage":"230 V"}');
      await x.publish(`${bad.prefix}/foo/bar`, "{}");
      sent += 4;
      await waitFor(async () => (await health(t, admin.token)).total.received === sent, "report");
      await running.ingest.flush();
      await waitFor(
        async () => (await health(t, admin.token)).total.stored === store.written.length,
        "a report after the samples were stored",
      );
    } finally {
      await g.stop();
      await x.stop();
    }

    const h = await health(t, admin.token);
    assert.equal(h.status, "running");
    assert.equal(h.instances.length, 1);
    assert.equal(h.instances[0].instance, "ingest-health-a");
    assert.equal(h.instances[0].connected, true);
    assert.equal(h.total.dropped.malformed_json, 2);
    assert.equal(h.total.dropped.wrong_type, 1);
    assert.equal(h.total.dropped.unknown_topic, 1);
    assert.equal(h.total.dropped.flood, 0);
    assert.ok(h.total.perMinute.received >= 7, `${h.total.perMinute.received} received per min`);
    assert.ok(store.written.length >= 3, "the good meter's readings were stored");
    assert.equal(h.total.perMinute.stored, store.written.length);
    assert.equal(h.total.perMinute.dropped, 4);

    const html = await statsPage(t, admin.token);
    assert.match(testid(html, "ingest-status"), /Ingest is running/);
    assert.equal(cell(html, "dropped-malformed_json"), 2);
    assert.equal(cell(html, "dropped-wrong_type"), 1);
    assert.equal(cell(html, "dropped-unknown_topic"), 1);
    assert.equal(cell(html, "dropped-oversized"), 0);
    for (const reason of DROP_REASONS) {
      assert.ok(html.includes(`data-reason="${reason}"`), `a row for ${reason}`);
    }
    assert.match(html, /Malformed JSON/);
    assert.match(html, /data-instance="ingest-health-a"/);
    assert.equal(cell(html, "ingest-total-dropped"), 4);

    await running.stop();
    stopped = true;
    const after = await health(t, admin.token);
    assert.equal(after.status, "not_running", "a cleanly stopped ingest removes its report");
    assert.match(testid(await statsPage(t, admin.token), "ingest-status"), /not running/);
  } finally {
    if (!stopped) await running.stop();
    await broker.close();
    await store.close();
    t.close();
  }
});

appTest(
  "/admin/stats says ingest is not running when no ingest reported, in the user's language",
  async (t) => {
    const es = await account(t, "admin", { language: "es" });
    const html = await statsPage(t, es.token);
    assert.match(testid(html, "ingest-status"), /La ingesta no está en marcha/);
    assert.ok(!html.includes('data-testid="ingest-dropped"'), "no empty table of reasons");
    const h = await health(t, es.token);
    assert.equal(h.status, "not_running");
    assert.equal(h.lastReportAt, null);
    assert.deepEqual(h.instances, []);
  },
);

Deno.test("/admin/stats marks a report older than the stale limit and sums every instance", async () => {
  const now = Date.now();
  const t = await testApp({ now: () => now });
  try {
    const admin = await account(t, "admin");
    const report = (instance: string, reportedAt: number, flood: number) => ({
      instance,
      host: "meter-gw",
      pid: 42,
      startedAt: reportedAt - 60_000,
      reportedAt,
      connected: true,
      received: 100,
      stored: 90,
      dropped: { ...Object.fromEntries(DROP_REASONS.map((r) => [r, 0])), flood } as Record<
        typeof DROP_REASONS[number],
        number
      >,
      errors: { store: 1, status: 0, directory: 0, internal: 0 },
      perMinute: { received: 10, stored: 9, dropped: flood },
    });
    await publishIngestHealth(t.deps.kv, report("worker-1", now - HEALTH_STALE_MS - 1_000, 3));
    let html = await statsPage(t, admin.token);
    assert.match(testid(html, "ingest-status"), /Ingest stopped reporting/);
    assert.equal((await health(t, admin.token)).status, "stale");
    assert.match(html, /Stale/);
    assert.equal(cell(html, "dropped-flood"), 3, "the last known figures are still shown");

    await publishIngestHealth(t.deps.kv, report("worker-2", now - 1_000, 5));
    await publishIngestHealth(t.deps.kv, report("worker-3", now - 2_000, 7));
    const h = await health(t, admin.token);
    assert.equal(h.status, "running");
    assert.deepEqual(h.instances.map((i) => [i.instance, i.stale]), [
      ["worker-1", true],
      ["worker-2", false],
      ["worker-3", false],
    ]);
    assert.equal(h.total.dropped.flood, 12, "the total sums the instances that still report");
    assert.equal(h.total.perMinute.received, 20);
    assert.equal(h.total.errors.store, 2);
    html = await statsPage(t, admin.token);
    assert.match(testid(html, "ingest-status"), /Ingest is running/);
    assert.equal(cell(html, "dropped-flood"), 12);
    assert.equal(cell(html, "ingest-total-store-errors"), 2);
    assert.match(html, /All ingest processes/);
  } finally {
    t.close();
  }
});
