/**
 * The embedded broker with ingest attached (`receive`): a QoS 1 publish is acknowledged only
 * after ingest said the reading is stored, and never when it could not be stored.
 */
import assert from "node:assert/strict";
import mqtt from "mqtt";
import { startEmbeddedBroker } from "../../ingest/broker.ts";
import { startIngest } from "../../ingest/subscriber.ts";
import {
  INGEST_CREDENTIALS,
  MemoryDirectory,
  MemoryStatus,
  MemoryStore,
  testSensor,
  waitFor,
} from "./_helpers.ts";

const A = testSensor("ACK-A");

async function meterOf(url: string) {
  const meter = await mqtt.connectAsync(url, {
    username: A.username,
    password: A.password,
    clientId: "ack-meter",
    reconnectPeriod: 0,
  });
  meter.on("error", () => {});
  return meter;
}

Deno.test("embedded broker: a QoS 1 publish is acknowledged only once ingest stored it", async () => {
  const directory = new MemoryDirectory([A]);
  const store = new MemoryStore();
  const ingest = startIngest({
    url: "mqtt://embedded",
    attached: true,
    clientId: "ack-ingest",
    directory,
    status: new MemoryStatus(),
    store,
    statsLogMs: 0,
  });
  await ingest.ready;
  const broker = await startEmbeddedBroker({
    port: 0,
    directory,
    ingestCredentials: INGEST_CREDENTIALS,
    receive: (topic, payload) => ingest.receive(topic, payload),
  });
  const meter = await meterOf(broker.url);
  try {
    const frame = (ts: number, power: number) =>
      JSON.stringify({
        method: "NotifyStatus",
        params: { ts, "em:0": { id: 0, total_act_power: power } },
      });
    const base = Math.floor(Date.now() / 1000) - 60;
    await Promise.all(
      [1, 2, 3].map((i) =>
        meter.publishAsync(`${A.prefix}/events/rpc`, frame(base + i, i), { qos: 1 }).then(() => {
          // At the moment of the acknowledgement the reading is in the store already.
          assert.ok(
            store.samples.some((s) => s.ts === (base + i) * 1000 && s.values.total_power === i),
            `reading ${i} stored before its PUBACK`,
          );
        })
      ),
    );
    assert.equal(ingest.stats().received, 3);

    // The store fails: the publish is left unacknowledged and the meter's connection closed.
    store.flushFails = new Error("disk full");
    let acked = false;
    const closed = new Promise<void>((resolve) => meter.once("close", () => resolve()));
    meter.publishAsync(`${A.prefix}/events/rpc`, frame(base + 4, 4), { qos: 1 }).then(
      () => acked = true,
      () => {},
    );
    await closed;
    assert.equal(acked, false, "no PUBACK for a reading that was not stored");
  } finally {
    meter.end(true);
    await ingest.stop();
    await broker.close();
  }
});

Deno.test("embedded broker: a device may not take a $share subscription", async () => {
  const directory = new MemoryDirectory([A]);
  const broker = await startEmbeddedBroker({
    port: 0,
    directory,
    ingestCredentials: INGEST_CREDENTIALS,
  });
  const meter = await meterOf(broker.url);
  try {
    // Refused with the failure code 0x80, which mqtt.js turns into an error.
    await assert.rejects(meter.subscribeAsync(`$share/g/${A.prefix}/#`, { qos: 1 }), /Subscribe/);
    await waitFor(() => broker.clients() === 1, "the meter stays connected");
  } finally {
    meter.end(true);
    await broker.close();
  }
});
