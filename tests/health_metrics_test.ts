/**
 * `GET /health` in each state (every check passing, KV, MQTT or the outbox failing) and
 * `GET /metrics`: refused without its token, then the metrics' names and values after known
 * traffic.
 */
import assert from "node:assert/strict";
import { account, call, testApp, testsWith } from "./_helpers.ts";
import { loadConfig } from "../services/platform/config.ts";
import type { RuntimeProbes } from "../services/platform/runtime.ts";
import type { IngestStats } from "../core/ingest_health.ts";
import { putCharge, type StoredCharge } from "../db/payments.ts";

const TOKEN = "metrics-token-0123456789";

function runtime(connected: boolean | null, stats: IngestStats | null = null): RuntimeProbes {
  return { mqtt: () => ({ ingestConnected: connected, clients: 3 }), ingest: () => stats };
}

/** `Deno.test` on a fresh app whose ingest is connected (true) or lost its broker (false). */
const runtimeTest = (connected: boolean) =>
  testsWith(() => testApp({ runtime: runtime(connected) }), (t) => t.close());

async function health(t: Awaited<ReturnType<typeof testApp>>) {
  const res = await call(t, "GET", "/health");
  return { status: res.status, body: await res.json() };
}

runtimeTest(true)(
  "/health answers 200 with kv, telemetry, mqtt and outbox, each timed",
  async (t) => {
    const { status, body } = await health(t);
    assert.equal(status, 200);
    assert.equal(body.status, "ok");
    assert.deepEqual(Object.keys(body.checks), ["kv", "telemetry", "mqtt", "outbox"]);
    for (const c of Object.values(body.checks) as { ok: boolean; latency_ms: number }[]) {
      assert.equal(c.ok, true);
      assert.equal(typeof c.latency_ms, "number");
    }
    assert.partialDeepStrictEqual(body.checks.mqtt, { running: true, ingest: true, clients: 3 });
    assert.partialDeepStrictEqual(body.checks.outbox, { pending: 0, overdue: 0 });
  },
);

runtimeTest(false)("/health answers 503 naming mqtt when ingest lost its broker", async (t) => {
  const { status, body } = await health(t);
  assert.equal(status, 503);
  assert.equal(body.status, "failing");
  assert.partialDeepStrictEqual(body.checks.mqtt, { ok: false, reason: "error" });
  assert.equal(body.checks.kv.ok, true);
  assert.equal(body.checks.outbox.ok, true);
});

Deno.test("/health answers 503 naming kv when KV cannot be written, and outbox with it", async () => {
  const t = await testApp({ runtime: runtime(null) });
  try {
    t.deps.kv.close();
    const { status, body } = await health(t);
    assert.equal(status, 503);
    assert.partialDeepStrictEqual(body.checks.kv, { ok: false, reason: "error" });
    assert.equal(body.checks.telemetry.ok, true);
    assert.partialDeepStrictEqual(body.checks.mqtt, { ok: true, ingest: false });
    assert.equal(body.checks.outbox.ok, false, "its backlog is in KV");
  } finally {
    t.close = () => t.deps.telemetry.close();
    t.close();
  }
});

Deno.test("/health answers 503 naming the outbox when its folder cannot be written", async () => {
  const dataDir = await Deno.makeTempDir();
  // The probe's name taken by a folder: the write fails as on a read-only or full volume.
  await Deno.mkdir(`${dataDir}/outbox/.health-probe`, { recursive: true });
  const t = await testApp({ config: loadConfig({ DATA_DIR: dataDir }) });
  try {
    await t.deps.kv.set(["outbox_due", Date.now() - 60_000, "m1"], null);
    const { status, body } = await health(t);
    assert.equal(status, 503);
    assert.partialDeepStrictEqual(body.checks.outbox, { ok: false, reason: "error" });
    assert.equal(body.checks.kv.ok, true);
    await Deno.remove(`${dataDir}/outbox/.health-probe`);
    const again = await health(t);
    assert.equal(again.status, 200);
    assert.partialDeepStrictEqual(again.body.checks.outbox, {
      ok: true,
      pending: 1,
      overdue: 1,
      folder: true,
    });
  } finally {
    t.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("/metrics is 404 without METRICS_TOKEN and 401 without the right bearer token", async () => {
  const off = await testApp();
  const on = await testApp({
    config: loadConfig({ DATA_DIR: "/nonexistent", METRICS_TOKEN: TOKEN }),
  });
  try {
    assert.equal((await call(off, "GET", "/metrics", { token: TOKEN })).status, 404);
    assert.equal((await call(on, "GET", "/metrics")).status, 401);
    assert.equal((await call(on, "GET", "/metrics", { token: TOKEN + "x" })).status, 401);
    assert.equal((await call(on, "GET", "/metrics", { token: TOKEN })).status, 200);
  } finally {
    off.close();
    on.close();
  }
});

const sample = (body: string, name: string, labels = ""): number | null => {
  const line = body.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(" ") + 1));
};

Deno.test("/metrics counts requests by route pattern, ingest, payments and the process", async () => {
  const stats: IngestStats = {
    received: 120,
    stored: 700,
    ignored: 4,
    invalidFields: 0,
    dropped: {
      malformed_json: 2,
      wrong_type: 0,
      unknown_topic: 0,
      unknown_device: 5,
      directory_error: 0,
      oversized: 0,
      flood: 1,
      store_error: 0,
    },
    errors: { store: 0, status: 0, directory: 0, internal: 0 },
    perMinute: { received: 0, stored: 0, dropped: 0 },
  };
  const t = await testApp({
    config: loadConfig({ DATA_DIR: "/nonexistent", METRICS_TOKEN: TOKEN }),
    runtime: runtime(true, stats),
  });
  try {
    const admin = await account(t, "admin");
    await call(t, "GET", "/health");
    await call(t, "GET", "/health");
    for (const id of [101, 102, 103]) {
      await call(t, "GET", `/api/devices/${id}`, { token: admin.token });
    }
    await call(t, "GET", "/no/such/page");
    await call(t, "BREW", "/health");
    const run = await call(t, "POST", "/unified-billing/process", {
      token: admin.token,
      json: { zone_id: 999, period: "2026-01" },
    });
    assert.equal(run.status, 404, "a billing run of a zone that does not exist");
    const charge = (id: string, status: string) =>
      ({ id, status, bill_id: 1, created_at: 0 }) as unknown as StoredCharge;
    await putCharge(t.deps.kv, charge("tr1", "in_progress"));
    await putCharge(t.deps.kv, charge("tr2", "completed"));
    await putCharge(t.deps.kv, charge("tr3", "completed"));
    t.deps.telemetry.write([{ serial: "SN-1", ts: Date.now(), values: { total_power: 5 } }]);
    await t.deps.telemetry.flush();
    const res = await call(t, "GET", "/metrics", { token: TOKEN });
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    const body = await res.text();
    const req = (route: string, status: number) =>
      sample(
        body,
        "portal_http_requests_total",
        `{method="GET",route="${route}",status="${status}"}`,
      );
    assert.equal(req("/health", 200), 2);
    assert.match(body, /portal_http_requests_total\{method="other",route="[^"]+",status="\d+"\} 1/);
    assert.doesNotMatch(body, /BREW/, "a made-up method is no series of its own");
    assert.equal(req("/api/devices/:id", 404), 3, "one series for three ids");
    assert.doesNotMatch(body, /devices\/10[123]/);
    assert.equal(req("unmatched", 302), 1, "an unknown path (sent to sign in) under one name");
    assert.equal(
      sample(
        body,
        "portal_http_request_duration_seconds_count",
        '{method="GET",route="/health",status="200"}',
      ),
      2,
    );
    assert.equal(sample(body, "portal_ingest_messages_received_total"), 120);
    assert.equal(sample(body, "portal_ingest_samples_stored_total"), 700);
    const dropped = (reason: string, kind: string) =>
      sample(body, "portal_ingest_messages_dropped_total", `{reason="${reason}",kind="${kind}"}`);
    assert.equal(dropped("malformed_json", "dropped"), 2);
    assert.equal(dropped("unknown_device", "refused"), 5);
    assert.equal(dropped("flood", "refused"), 1);
    assert.equal(sample(body, "portal_mqtt_connected_clients"), 3);
    assert.equal(sample(body, "portal_ingest_connected"), 1);
    assert.equal(sample(body, "portal_telemetry_backlog_samples"), 0);
    assert.equal(sample(body, "portal_telemetry_samples_written_total"), 1);
    assert.equal(sample(body, "portal_telemetry_batches_total"), 1);
    assert.ok((sample(body, "portal_telemetry_batch_seconds_total") ?? 0) > 0);
    assert.equal(sample(body, "portal_payments", '{state="completed"}'), 2);
    assert.equal(sample(body, "portal_payments", '{state="in_progress"}'), 1);
    assert.equal(sample(body, "portal_outbox_pending", '{due="past"}'), 0);
    assert.equal(sample(body, "portal_billing_runs_total", '{outcome="refused"}'), 1);
    assert.ok((sample(body, "process_resident_memory_bytes") ?? 0) > 1e6);
    assert.notEqual(sample(body, "nodejs_eventloop_lag_seconds"), null);
    // Every series the Grafana dashboard charts is one the portal answers.
    const dashboard = await Deno.readTextFile(
      new URL("../docs/grafana-dashboard.json", import.meta.url),
    );
    const charted = new Set(dashboard.match(/\b(portal|process|nodejs)_[a-z0-9_]+/g));
    const served = new Set(
      body.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(/[{ ]/)[0]),
    );
    assert.deepEqual([...charted].filter((name) => !served.has(name)), []);
  } finally {
    t.close();
  }
});
