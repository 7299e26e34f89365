import assert from "node:assert/strict";
import mqtt from "mqtt";
import { BROKERS, connectMeters, startTestIngest, testSensor, waitFor } from "./_helpers.ts";

for (const { name, start } of BROKERS) {
  Deno.test(`${name}: bad messages are survived and counted while good ones keep flowing`, async () => {
    const good = testSensor("GOOD-1");
    const bad = testSensor("BAD-1");
    const { status, store, broker, ingest, close } = await startTestIngest(start, [good, bad], {
      maxMessageBytes: 2_000,
      ratePerDevice: 5,
      burstPerDevice: 30,
    });
    await ingest.ready;
    let t = Date.now();
    const [g, x] = await connectMeters(broker, [good, bad], {
      now: () => (t += 1_000),
      statusEvery: 0,
    });
    const stranger = name === "mosquitto"
      ? await mqtt.connectAsync(broker.url, { clientId: "stranger" })
      : null;
    try {
      await waitFor(() => ingest.stats().received === 2, "both online messages");
      let goodSent = 0;
      goodSent += await g.tick();
      // The bad meter: five kinds of bad message.
      await x.publish(`${bad.prefix}/status/em:0`, '{"a_voltage": 230,');
      await x.publish(`${bad.prefix}/status/em:0`, '{"a_voltage":"230 V","a_current":[1]}');
      await x.publish(`${bad.prefix}/events/rpc`, '{"method":"NotifyStatus","params":"em:0"}');
      await x.publish(`${bad.prefix}/foo/bar`, "{}");
      await x.publish(`${bad.prefix}/status/em:0`, JSON.stringify({ pad: "x".repeat(5_000) }));
      // ... and a flood of 200 good-looking frames at once.
      const base = Math.floor(Date.now() / 1000) - 300;
      await Promise.all(Array.from({ length: 200 }, (_, i) =>
        x.publish(
          `${bad.prefix}/events/rpc`,
          JSON.stringify({
            method: "NotifyStatus",
            params: { ts: base + i, "em:0": { id: 0, a_current: i / 10 } },
          }),
        )));
      if (stranger) await stranger.publishAsync("sensor/nobody/status/em:0", "{}", { qos: 1 });
      for (let i = 0; i < 5; i++) goodSent += await g.tick();
      const expected = 2 + goodSent + 5 + 200 + (stranger ? 1 : 0);
      await waitFor(() => ingest.stats().received === expected, `${expected} messages`);
      await ingest.flush();

      const s = ingest.stats();
      assert.equal(s.dropped.malformed_json, 1);
      assert.equal(s.dropped.wrong_type, 2);
      assert.equal(s.dropped.unknown_topic, 1);
      assert.equal(s.dropped.oversized, 1);
      assert.equal(s.dropped.unknown_device, stranger ? 1 : 0);
      // 30 tokens at first, 5 used by the bad messages; about 5 per second come back.
      assert.ok(s.dropped.flood >= 165 && s.dropped.flood <= 176, `${s.dropped.flood} flood drops`);
      const goodSamples = store.written.filter((x) => x.serial === good.serial);
      assert.equal(goodSamples.length, 6, "every good frame stored");
      const badSamples = store.written.filter((x) => x.serial === bad.serial);
      assert.equal(badSamples.length, 200 - s.dropped.flood);
      assert.equal(status.current(good.serial)?.status, "online");
      assert.equal(s.errors.internal, 0);
    } finally {
      await stranger?.endAsync();
      await Promise.all([g.stop(), x.stop()]);
      await close();
    }
  });
}
