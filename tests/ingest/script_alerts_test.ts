/**
 * `deno task ingest` judges the reading alert rules too (issue 30): ingest as its own process
 * (`scripts/ingest.ts`, the portal at `INGEST=off`) on the portal's KV file and a real
 * Mosquitto reads a rule created through the portal after it started (the rules' revision
 * moved) and opens one alert when a meter's frames trip it.
 */
import assert from "node:assert/strict";
import { billingWorld } from "../_billing_world.ts";
import { call } from "../_helpers.ts";
import { meterClient, mosquittoBroker, notifyFrame, testSensor } from "./_helpers.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("scripts/ingest.ts on the portal's KV file: a rule made after it started opens one alert", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ingest-alerts-" });
  const kv = await Deno.openKv(`${dir}/portal.kv`);
  const w = await billingWorld({ kv });
  const broker = await mosquittoBroker();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/ingest.ts"],
    cwd: ROOT,
    env: {
      DATA_DIR: dir,
      MQTT_URL: broker.url,
      INGEST_CLIENT_ID: "ingest-alerts-test",
      LOG_LEVEL: "info",
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const device = testSensor("SIM-A");
  let meter: Awaited<ReturnType<typeof meterClient>> | null = null;
  try {
    const deadline = Date.now() + 30_000;
    while (!log.includes('"ingest subscribed"')) {
      assert.ok(Date.now() < deadline, `no "ingest subscribed" line:\n${log}`);
      const { value, done } = await reader.read();
      if (done) break;
      log += value;
    }
    // Keep reading the log so the child never blocks on a full pipe.
    const rest = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        log += value;
      }
    })().catch(() => {});
    const created = await call(w.t, "POST", "/api/alerts/rules", {
      token: w.admin,
      json: {
        template: "reverse_power",
        scope: "station",
        scope_id: String(w.stationId),
        tolerance_w: 50,
        minutes: 1,
      },
    });
    assert.equal(created.status, 201);
    const alerts = async () =>
      (await (await call(w.t, "GET", "/api/alerts", { token: w.admin })).json()).alerts;
    meter = await meterClient(broker.url, device, "ingest-alerts-meter");
    // A reversed clamp, one frame per 15 s of the meter's clock, until the process has read
    // the rule (at one of its flushes) and judged a minute of them.
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    let opened: unknown[] = [];
    for (let i = 0; i < 200 && opened.length === 0; i++) {
      await meter.publishAsync(`${device.prefix}/events/rpc`, notifyFrame(t0 + i * 15, -200), {
        qos: 1,
      });
      await new Promise((r) => setTimeout(r, 100));
      opened = await alerts();
    }
    assert.equal(opened.length, 1, `no alert opened:\n${log}`);
    // More of the same frames change nothing: still the one alert.
    for (let i = 200; i < 210; i++) {
      await meter.publishAsync(`${device.prefix}/events/rpc`, notifyFrame(t0 + i * 15, -200), {
        qos: 1,
      });
    }
    child.kill("SIGTERM");
    const status = await child.status;
    await rest;
    assert.equal(status.code, 0, log);
    const [alert, ...others] = await alerts();
    assert.equal(others.length, 0);
    assert.partialDeepStrictEqual(alert, {
      template: "reverse_power",
      subject: "SIM-A",
      station_id: w.stationId,
      state: "open",
      value: -200,
      key: "total_power",
    });
  } finally {
    await meter?.endAsync();
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await child.status;
    reader.releaseLock();
    await child.stderr.cancel().catch(() => {});
    await broker.close();
    w.t.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
