import assert from "node:assert/strict";
import mqtt from "mqtt";
import { startIngest } from "../../ingest/subscriber.ts";
import {
  BROKERS,
  connectMeters,
  embeddedBroker,
  INGEST_CREDENTIALS,
  MemoryDirectory,
  MemoryStatus,
  meterClient,
  sqliteStore,
  testIngestOptions,
  testSensor,
  waitFor,
} from "./_helpers.ts";

for (const { name, start } of BROKERS) {
  Deno.test(`${name}: two ingest processes on a shared subscription split the messages`, async () => {
    const devices = [testSensor("SHR-1"), testSensor("SHR-2"), testSensor("SHR-3")];
    const directory = new MemoryDirectory(devices);
    const broker = await start(directory);
    const stores = [sqliteStore(), sqliteStore()];
    const ingests = stores.map((store, i) =>
      startIngest(
        testIngestOptions(broker, { directory, status: new MemoryStatus(), store }, {
          clientId: `ingest-shared-${i}`,
          shareGroup: "portal",
          // Mosquitto: MQTT 5; the embedded broker speaks 3.1.1 and shares over it.
          protocolVersion: name === "embedded" ? 4 : 5,
          ratePerDevice: 1_000,
          burstPerDevice: 5_000,
        }),
      )
    );
    await Promise.all(ingests.map((i) => i.ready));
    const meters = await connectMeters(broker, devices);
    const base = Math.floor(Date.now() / 1000) - 3_600;
    const perMeter = 300;
    try {
      await Promise.all(
        meters.map((m) =>
          Promise.all(Array.from({ length: perMeter }, (_, i) =>
            m.publish(
              `${m.model.prefix}/events/rpc`,
              JSON.stringify({
                method: "NotifyStatus",
                params: { ts: base + i, "em:0": { id: 0, a_voltage: 120 + (i % 10) } },
              }),
            )))
        ),
      );
      const expected = devices.length * (perMeter + 1); // + online true
      const received = () => ingests.reduce((n, i) => n + i.stats().received, 0);
      await waitFor(() => received() === expected, `${expected} messages between the two`);
      await Promise.all(ingests.map((i) => i.flush()));
      const keys = stores.map((s) => s.written.map((x) => `${x.serial}@${x.ts}`));
      const [a, b] = keys.map((k) => new Set(k));
      assert.equal(a.size + b.size, devices.length * perMeter, "no reading lost");
      assert.equal(keys[0].length + keys[1].length, a.size + b.size, "none twice in one process");
      assert.deepEqual([...a].filter((k) => b.has(k)), [], "none in both processes");
      for (const [i, n] of [a.size, b.size].entries()) {
        assert.ok(n > devices.length * perMeter * 0.2, `process ${i} took a share (${n})`);
      }
    } finally {
      await Promise.all(meters.map((m) => m.stop()));
      await Promise.all(ingests.map((i) => i.stop()));
      await Promise.all(stores.map((s) => s.close()));
      await broker.close();
    }
  });
}

Deno.test("embedded: a share group's messages go to its connected members, and wait in a persistent session when none is", async () => {
  const meterDevice = testSensor("SHR-P");
  const directory = new MemoryDirectory([meterDevice]);
  const broker = await embeddedBroker(directory);
  const got = new Map<string, string[]>();
  const member = async (id: string) => {
    const c = mqtt.connect(broker.url, {
      ...INGEST_CREDENTIALS,
      clientId: id,
      clean: false,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    // Before the CONNACK: a kept session's queued messages follow it at once.
    c.on("message", (topic, payload) => {
      assert.ok(topic.startsWith(`${meterDevice.prefix}/`), `original topic, got ${topic}`);
      got.set(id, [...(got.get(id) ?? []), String(payload)]);
    });
    await new Promise((resolve) => c.once("connect", resolve));
    return c;
  };
  const meter = await meterClient(broker.url, meterDevice, "shr-p-meter");
  let one = await member("share-1");
  let two = await member("share-2");
  try {
    await one.subscribeAsync("$share/g/sensor/+/#", { qos: 1 });
    await two.subscribeAsync("$share/g/sensor/+/#", { qos: 1 });
    const send = (from: number, to: number) =>
      Promise.all(
        Array.from({ length: to - from }, (_, i) =>
          meter.publishAsync(`${meterDevice.prefix}/m`, String(from + i), { qos: 1 })),
      );
    await send(0, 10);
    await waitFor(() => [...got.values()].flat().length === 10, "10 messages split");
    assert.ok(got.get("share-1")!.length > 0 && got.get("share-2")!.length > 0, "both took some");
    await two.endAsync();
    await send(10, 16);
    await waitFor(() => [...got.values()].flat().length === 16, "the rest to the connected one");
    assert.equal(got.get("share-2")!.length + got.get("share-1")!.length, 16);
    await one.endAsync();
    await send(16, 20); // nobody connected: queued in a member's session
    one = await member("share-1");
    two = await member("share-2");
    await waitFor(() => [...got.values()].flat().length === 20, "the queued ones after reconnect");
    const all = [...got.values()].flat().map(Number).sort((a, b) => a - b);
    assert.deepEqual(all, Array.from({ length: 20 }, (_, i) => i), "each message exactly once");
  } finally {
    meter.end(true);
    one.end(true);
    two.end(true);
    await broker.close();
  }
});
