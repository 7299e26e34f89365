import assert from "node:assert/strict";
import {
  connectMeters,
  mosquittoBroker,
  startTestIngest,
  testSensor,
  waitFor,
} from "./_helpers.ts";

Deno.test("mosquitto: a broker restart mid-stream loses no acknowledged reading", async () => {
  const devices = [testSensor("RST-1"), testSensor("RST-2")];
  const { store, broker, ingest, close } = await startTestIngest(mosquittoBroker, devices, {
    ratePerDevice: 1_000,
    burstPerDevice: 5_000,
    // Ingest comes back well after the meters: what they publish meanwhile waits in
    // ingest's persistent session, which the broker kept across its restart.
    reconnectMs: 700,
  });
  const mosquitto = broker.mosquitto!;
  await ingest.ready;
  const meters = await connectMeters(broker, devices);
  const acked = new Set<string>();
  const base = Math.floor(Date.now() / 1000) - 3_600;
  const total = 600;
  try {
    const publishAll = meters.map(async (m) => {
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        const key = `${m.model.serial}@${(base + i) * 1000}`;
        const frame = JSON.stringify({
          method: "NotifyStatus",
          params: { ts: base + i, "em:0": { id: 0, total_act_power: i } },
        });
        inFlight.push(
          m.publish(`${m.model.prefix}/events/rpc`, frame).then(
            () => void acked.add(key),
            () => {},
          ),
        );
        if (inFlight.length >= 20) await Promise.all(inFlight.splice(0));
        await new Promise((r) => setTimeout(r, 1));
      }
      await Promise.all(inFlight);
    });
    await waitFor(() => acked.size >= 300, "a third of the stream acknowledged");
    await mosquitto.stop();
    const ackedBeforeStop = acked.size;
    await new Promise((r) => setTimeout(r, 300));
    await mosquitto.start();
    await Promise.all(publishAll);
    assert.ok(ackedBeforeStop < 2 * total, "the restart happened mid-stream");
    assert.equal(acked.size, 2 * total, "the meters' client resent what was not acknowledged");

    const storedKeys = () => new Set(store.written.map((s) => `${s.serial}@${s.ts}`));
    await waitFor(
      () => [...acked].every((k) => storedKeys().has(k)),
      "every acked reading",
      10_000,
    );
    await ingest.flush();
    assert.ok(ingest.stats().connects >= 2, "ingest reconnected");
    const stored = storedKeys();
    const lost = [...acked].filter((k) => !stored.has(k));
    assert.deepEqual(lost, []);
    for (const m of meters) {
      const latest = await store.latest(m.model.serial);
      assert.equal(latest?.values.total_power, total - 1);
    }
  } finally {
    await Promise.all(meters.map((m) => m.stop()));
    await close();
  }
});
