import assert from "node:assert/strict";
import { BROKERS, connectMeters, startTestIngest, testSensor, waitFor } from "./_helpers.ts";

for (const { name, start } of BROKERS) {
  Deno.test(`${name}: simulated meters' readings arrive in the store and they are online`, async () => {
    const devices = [testSensor("PRO3EM-01"), testSensor("PRO3EM-02"), testSensor("PRO3EM-03")];
    const { status, store, broker, ingest, close } = await startTestIngest(start, devices);
    await ingest.ready;
    // Each meter's clock moves 10 s per tick, so every frame has its own time.
    const base = Date.now();
    const meters = await Promise.all(devices.map((d) => {
      let t = base;
      return connectMeters(broker, [d], { now: () => (t += 10_000) }).then(([m]) => m);
    }));
    try {
      let published = 0;
      for (let tick = 0; tick < 4; tick++) {
        for (const m of meters) published += await m.tick();
      }
      // 4 ticks: a NotifyFullStatus and the two status objects first, then NotifyStatus frames.
      assert.equal(published, 3 * (3 + 3));
      await waitFor(
        () => ingest.stats().received >= published + 3,
        "every message (and online true) to arrive",
      );
      await ingest.flush();
      for (const m of meters) {
        const latest = await store.latest(m.model.serial);
        assert.ok(latest, `a reading of ${m.model.serial}`);
        assert.equal(latest.values.total_energy_kwh! > 0, true);
        assert.ok(Math.abs(latest.values.phase_a_voltage! - 127) < 5);
        assert.equal(
          latest.values.phase_b_power,
          m.model.lastSent.b_act_power,
          "partial frames overlaid: the last value the meter sent",
        );
        assert.equal(status.current(m.model.serial)?.status, "online");
        assert.ok(status.lastSeen.get(m.model.serial)! > 0);
      }
      const s = ingest.stats();
      assert.equal(s.received, published + 3);
      assert.equal(Object.values(s.dropped).reduce((a, b) => a + b, 0), 0);
      assert.equal(s.stored, store.written.length);
      // One sample per frame; tick 0's two status objects join the frame's sample when
      // they arrive in its millisecond, else make one more each.
      assert.ok(s.stored >= 12 && s.stored <= 18, `${s.stored} samples`);
      for (const m of meters) {
        const times = store.written.filter((x) => x.serial === m.model.serial).map((x) => x.ts);
        for (const k of [2, 3, 4, 5]) {
          // Frames carry the time to 10 ms, as the meter does.
          const ts = Math.round((base + k * 10_000) / 10) * 10;
          assert.ok(
            times.includes(ts),
            `${m.model.serial}: tick ${k - 2} at ${ts - base} in ${times.map((x) => x - base)}`,
          );
        }
      }
      assert.equal(s.connected, true);
    } finally {
      await Promise.all(meters.map((m) => m.stop()));
      await close();
    }
  });
}
