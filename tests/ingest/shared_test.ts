import assert from "node:assert/strict";
import { startIngest } from "../../ingest/subscriber.ts";
import {
  BROKERS,
  connectMeters,
  MemoryDirectory,
  MemoryStatus,
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
