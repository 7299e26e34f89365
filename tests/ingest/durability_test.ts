/**
 * "Acknowledged means stored" on the embedded broker: the real portal process (with its
 * embedded broker and ingest) takes a stream of QoS 1 Shelly frames from a meter, is killed
 * with SIGKILL mid-stream, and its telemetry file then holds every reading the broker
 * acknowledged.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { storedSamples } from "../../db/telemetry/_sqlite_chunks.ts";
import mqtt from "mqtt";
import { simIdentity } from "../../ingest/sim.ts";
import { openSqliteStore } from "../../db/telemetry/sqlite.ts";
import { DEMO_SIM_NAMING } from "../../services/demo_devices.ts";
import { waitFor } from "./_helpers.ts";
import { spawnPortal } from "../e2e/_browser.ts";

/** Where a stored sample keeps its total power. */
const POWER = MEASUREMENT_KEYS.indexOf("total_power");

Deno.test("embedded broker: every QoS 1 reading it acknowledged survives a SIGKILL of the portal", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "durability-" });
  const portal = await spawnPortal({ demo: true, dataDir, env: { MQTT_HOSTNAME: "127.0.0.1" } });
  const port = portal.mqttPort;
  const meter = simIdentity(3, DEMO_SIM_NAMING); // a demo sensor: its credentials are in the portal
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    username: meter.username,
    password: meter.password,
    clientId: `durability-${meter.username}`,
    reconnectPeriod: 0,
    protocolVersion: 4,
  });
  client.on("error", () => {});
  const acked = new Set<number>();
  const base = Math.floor(Date.now() / 1000) - 3_600;
  const total = 1_000; // under the meter's burst allowance: nothing is dropped as a flood
  const topic = `sensor/${meter.serial.toLowerCase()}/events/rpc`;
  let killed = false;
  try {
    const stream = (async () => {
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < total && !killed; i++) {
        const frame = JSON.stringify({
          method: "NotifyStatus",
          params: { ts: base + i + 0.25, "em:0": { id: 0, total_act_power: i } },
        });
        inFlight.push(
          client.publishAsync(topic, frame, { qos: 1 }).then(
            () => void acked.add(i),
            () => {},
          ),
        );
        if (inFlight.length >= 20) await Promise.all(inFlight.splice(0));
      }
      await Promise.all(inFlight);
    })();
    await waitFor(() => acked.size >= 300, "300 readings acknowledged", 30_000);
    killed = true;
    const status = await portal.kill();
    assert.equal(status.signal, "SIGKILL");
    client.end(true);
    await stream;
    assert.ok(acked.size < total, "the portal was killed mid-stream");

    // The store merges what the killed portal had only journaled when it opens again.
    const store = openSqliteStore(`${dataDir}/telemetry.sqlite`);
    await store.latest(meter.serial);
    await store.close();
    const db = new DatabaseSync(`${dataDir}/telemetry.sqlite`);
    try {
      const rows = storedSamples(db, meter.serial, base * 1000, (base + total) * 1000);
      const stored = new Map(rows.map((r) => [r.ts, r.vals[POWER]]));
      const lost = [...acked].filter((i) => stored.get((base + i) * 1000 + 250) !== i);
      assert.deepEqual(lost, [], `${lost.length} of ${acked.size} acknowledged readings lost`);
    } finally {
      db.close();
    }
  } finally {
    if (!killed) await portal.close();
    client.end(true);
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
