import assert from "node:assert/strict";
import {
  createMeter,
  dailyLoad,
  emDataStatus,
  emStatus,
  notifyStatus,
  simIdentity,
  stepMeter,
  tickMessages,
} from "./sim.ts";
import { interpretMessage, newMeterState } from "./shelly.ts";

const T0 = Date.UTC(2025, 2, 3, 6, 0, 0); // 00:00 in UTC-6

Deno.test("dailyLoad() is low at night and peaks in the evening", () => {
  assert.ok(dailyLoad(3) < 0.3);
  assert.ok(dailyLoad(20) > 0.9);
  assert.ok(dailyLoad(8) > dailyLoad(5));
  for (let h = 0; h < 24; h += 0.25) {
    assert.ok(dailyLoad(h) >= 0.15 && dailyLoad(h) <= 1, `hour ${h}`);
  }
});

Deno.test("a simulated meter's counters only grow over a day, and its frames parse", () => {
  const m = createMeter("SIM0001", { t: T0 });
  const state = newMeterState();
  let last = emDataStatus(m);
  let eveningPower = 0;
  let nightPower = 0;
  for (let t = T0; t <= T0 + 86_400_000; t += 60_000) {
    stepMeter(m, t);
    const data = emDataStatus(m);
    for (const key of Object.keys(data)) {
      assert.ok((data[key] as number) >= (last[key] as number), `${key} went down at ${t}`);
    }
    last = data;
    const hour = ((t - T0) / 3.6e6) % 24;
    const total = emStatus(m).total_act_power as number;
    if (hour >= 19.5 && hour < 20.5) eveningPower += total;
    if (hour >= 2 && hour < 3) nightPower += total;
    const r = interpretMessage(state, "events/rpc", notifyStatus(m, true), t);
    assert.equal(r.type, "reading");
    if (r.type === "reading") {
      assert.equal(r.invalidFields, 0);
      assert.equal(r.ts, Math.round(t / 10) * 10);
    }
  }
  assert.ok(eveningPower > nightPower * 2, "evening load is well above the night's");
  const v = emStatus(m);
  assert.ok(Math.abs((v.a_voltage as number) - 127) < 5, "voltage near 127 V");
});

Deno.test("partial frames carry only keys that changed past the thresholds", () => {
  const m = createMeter("SIM0002", { t: T0 });
  const first = JSON.parse(notifyStatus(m)).params["em:0"];
  assert.ok(Object.keys(first).length > 15, "the first frame has everything");
  const again = JSON.parse(notifyStatus(m)).params["em:0"];
  assert.deepEqual(again, { id: 0 }, "nothing changed");
});

Deno.test("a meter with solar exports at midday and counts returned energy", () => {
  const m = createMeter("SIM0003", { t: T0 });
  m.solarW = 4000;
  m.peakW[2] = 300;
  const noon = T0 + 13 * 3.6e6;
  stepMeter(m, noon - 3_600_000);
  const before = m.returnedWh[2];
  for (let t = noon - 3_600_000; t <= noon; t += 10_000) stepMeter(m, t);
  assert.ok(m.returnedWh[2] - before > 2000, "about 3.5 kWh returned in the hour");
  assert.ok((emStatus(m).c_act_power as number) < 0, "phase c exports");
  assert.ok((emStatus(m).c_current as number) > 0, "current is a magnitude");
});

Deno.test("the same serial gives the same meter; ticks have the real topics", () => {
  const a = createMeter("SIM0042", { t: T0 });
  const b = createMeter("SIM0042", { t: T0 });
  assert.deepEqual(emStatus(a), emStatus(b));
  const first = tickMessages(a, { tick: 0 });
  assert.deepEqual(first.map((x) => x.topic), [
    "sensor/sim0042/events/rpc",
    "sensor/sim0042/status/em:0",
    "sensor/sim0042/status/emdata:0",
  ]);
  assert.equal(JSON.parse(first[0].payload).method, "NotifyFullStatus");
  const later = tickMessages(a, { tick: 1 });
  assert.equal(later.length, 1);
  assert.equal(JSON.parse(later[0].payload).method, "NotifyStatus");
});

Deno.test("simIdentity() fills the naming patterns", () => {
  assert.deepEqual(simIdentity(7), {
    serial: "SIM0007",
    username: "sim0007",
    password: "sim-sim0007-pass",
  });
  assert.deepEqual(
    simIdentity(12, { serial: "PRO3EM-{n}", username: "u-{serial}", password: "{n}" }),
    { serial: "PRO3EM-0012", username: "u-PRO3EM-0012", password: "0012" },
  );
});
