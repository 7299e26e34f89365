/**
 * The embedded broker with ingest attached (`receive`): a QoS 1 publish is acknowledged only
 * after ingest said the reading is stored, and never when it could not be stored.
 */
import assert from "node:assert/strict";
import { startEmbeddedBroker } from "../../ingest/broker.ts";
import {
  attachedIngest,
  INGEST_CREDENTIALS,
  MemoryDirectory,
  MemoryStore,
  meterClient,
  notifyFrame,
  testSensor,
  waitFor,
} from "./_helpers.ts";

const A = testSensor("ACK-A");

Deno.test("embedded broker: a QoS 1 publish is acknowledged only once ingest stored it", async () => {
  const store = new MemoryStore();
  const { ingest, broker, meter } = await attachedIngest(A, store, "ack");
  try {
    const base = Math.floor(Date.now() / 1000) - 60;
    await Promise.all(
      [1, 2, 3].map((i) =>
        meter.publishAsync(`${A.prefix}/events/rpc`, notifyFrame(base + i, i), { qos: 1 }).then(
          () => {
            // At the moment of the acknowledgement the reading is in the store already.
            assert.ok(
              store.samples.some((s) => s.ts === (base + i) * 1000 && s.values.total_power === i),
              `reading ${i} stored before its PUBACK`,
            );
          },
        )
      ),
    );
    assert.equal(ingest.stats().received, 3);

    // The store fails: the publish is left unacknowledged and the meter's connection closed.
    store.flushFails = new Error("disk full");
    let acked = false;
    const closed = new Promise<void>((resolve) => meter.once("close", () => resolve()));
    meter.publishAsync(`${A.prefix}/events/rpc`, notifyFrame(base + 4, 4), { qos: 1 }).then(
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
  const meter = await meterClient(broker.url, A, "ack-meter");
  try {
    // Refused with the failure code 0x80, which mqtt.js turns into an error.
    await assert.rejects(meter.subscribeAsync(`$share/g/${A.prefix}/#`, { qos: 1 }), /Subscribe/);
    await waitFor(() => broker.clients() === 1, "the meter stays connected");
  } finally {
    meter.end(true);
    await broker.close();
  }
});
