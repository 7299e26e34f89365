import assert from "node:assert/strict";
import { type IngestLimits, IngestProcessor } from "./processor.ts";
import {
  MemoryDirectory,
  MemoryStatus,
  MemoryStore,
  testSensor,
} from "../tests/ingest/_helpers.ts";

const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
const A = testSensor("SN-A1");
const B = testSensor("SN-B2");

function setup(limits: Partial<IngestLimits> = {}) {
  let clock = T0;
  const directory = new MemoryDirectory([A, B]);
  const status = new MemoryStatus();
  const store = new MemoryStore();
  const p = new IngestProcessor(
    { directory, status, store, now: () => clock },
    { silenceMs: 60_000, ...limits },
  );
  return {
    p,
    directory,
    status,
    store,
    tick: (ms: number) => (clock += ms),
    now: () => clock,
  };
}

const em = (voltage: number) => JSON.stringify({ id: 0, a_voltage: voltage, a_act_power: 100 });
const frame = (ts: number, current: number) =>
  JSON.stringify({
    method: "NotifyStatus",
    params: { ts: ts / 1000, "em:0": { a_current: current } },
  });

/** Lets directory lookups (promises) settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

Deno.test("a reading of a known device reaches the store; the device is seen and online", async () => {
  const { p, store, status } = setup();
  p.handle(`${A.prefix}/status/em:0`, new TextEncoder().encode(em(229.5)));
  await settle();
  await p.flush();
  assert.equal(store.samples.length, 1);
  assert.deepEqual(store.samples[0], {
    serial: "SN-A1",
    ts: T0,
    values: { phase_a_voltage: 229.5, phase_a_power: 100 },
  });
  assert.equal(status.lastSeen.get("SN-A1"), T0);
  assert.deepEqual(status.events, [{ serial: "SN-A1", ts: T0, status: "online" }]);
  const s = p.stats();
  assert.equal(s.received, 1);
  assert.equal(s.stored, 1);
  assert.equal(s.devices.online, 1);
  await p.close();
});

Deno.test("the directory is asked once per prefix; messages wait for it in order", async () => {
  const { p, store, directory } = setup();
  for (let i = 0; i < 5; i++) p.handle(`${A.prefix}/events/rpc`, frame(T0 - 5000 + i * 1000, i));
  assert.equal(directory.lookups, 1, "one lookup for five messages");
  await settle();
  p.handle(`${A.prefix}/events/rpc`, frame(T0, 9));
  await p.flush();
  assert.equal(directory.lookups, 1, "cached afterwards");
  assert.deepEqual(store.samples.map((s) => s.values.phase_a_current), [0, 1, 2, 3, 4, 9]);
  await p.close();
});

Deno.test("preloaded devices are not looked up", async () => {
  const { p, directory } = setup();
  p.preload(await directory.list());
  p.handle(`${A.prefix}/status/em:0`, em(230));
  p.handle(`${B.prefix}/status/em:0`, em(231));
  assert.equal(directory.lookups, 0);
  assert.equal(p.stats().stored + 2, 2, "not yet written: batched");
  await p.close();
});

Deno.test("an unknown device is dropped and counted; it is asked again after the TTL", async () => {
  const { p, directory, store, tick } = setup({ unknownTtlMs: 10_000 });
  const c = testSensor("NEW-1");
  p.handle(`${c.prefix}/status/em:0`, em(230));
  await settle();
  p.handle(`${c.prefix}/status/em:0`, em(230));
  assert.equal(directory.lookups, 1, "the unknown answer is cached");
  assert.equal(p.stats().dropped.unknown_device, 2);
  directory.add(c);
  tick(10_000);
  p.handle(`${c.prefix}/status/em:0`, em(231));
  await settle();
  await p.flush();
  assert.equal(directory.lookups, 2);
  assert.deepEqual(store.samples.map((s) => s.serial), ["NEW-1"]);
  await p.close();
});

Deno.test("a deleted device stops being accepted after the known TTL", async () => {
  const { p, directory, tick } = setup({ knownTtlMs: 5_000 });
  p.handle(`${A.prefix}/status/em:0`, em(230));
  await settle();
  directory.remove(A.prefix);
  tick(5_000);
  p.handle(`${A.prefix}/status/em:0`, em(230)); // accepted while re-checked in the background
  await settle();
  p.handle(`${A.prefix}/status/em:0`, em(230));
  assert.equal(p.stats().dropped.unknown_device, 1);
  await p.close();
  assert.equal(p.stats().stored, 2);
});

Deno.test("bad messages are dropped by reason while good ones keep flowing", async () => {
  const { p, store } = setup({ maxMessageBytes: 1000, ratePerDevice: 1, burstPerDevice: 5 });
  p.preload([A, B]);
  p.handle(`${A.prefix}/status/em:0`, "{not json");
  p.handle(`${A.prefix}/status/em:0`, '{"a_voltage":"high"}');
  p.handle(`${A.prefix}/foo/bar`, "{}");
  p.handle("elsewhere/x/online", "true");
  p.handle(`${A.prefix}/status/em:0`, JSON.stringify({ a_voltage: 230, pad: "x".repeat(1000) }));
  p.handle(`${A.prefix}/status/em:0`, em(230));
  // B floods: 5 pass (burst), the rest are dropped.
  for (let i = 0; i < 20; i++) p.handle(`${B.prefix}/status/em:0`, em(200 + i));
  await p.flush();
  const s = p.stats();
  assert.equal(s.received, 26);
  assert.deepEqual(s.dropped, {
    malformed_json: 1,
    wrong_type: 1,
    unknown_topic: 2,
    unknown_device: 0,
    directory_error: 0,
    oversized: 1,
    flood: 15,
    store_error: 0,
  });
  assert.equal(s.perMinute.dropped, 20);
  assert.equal(s.perMinute.received, 26);
  assert.deepEqual(
    store.samples.map((x) => x.values.phase_a_voltage),
    [230, 204],
    "the five B readings of one millisecond became one sample, the last one winning",
  );
  await p.close();
});

Deno.test("readings at the same millisecond of one device become one sample", async () => {
  const { p, store } = setup();
  p.preload([A, B]);
  p.handle(`${A.prefix}/status/em:0`, em(230));
  p.handle(`${B.prefix}/status/em:0`, em(231));
  p.handle(`${A.prefix}/status/emdata:0`, '{"id":0,"total_act":12345.6}');
  p.handle(`${A.prefix}/events/rpc`, frame(T0 - 1000, 2));
  await p.flush();
  assert.deepEqual(store.samples, [
    {
      serial: "SN-A1",
      ts: T0,
      values: { phase_a_voltage: 230, phase_a_power: 100, total_energy_kwh: 12.3456 },
    },
    { serial: "SN-B2", ts: T0, values: { phase_a_voltage: 231, phase_a_power: 100 } },
    {
      serial: "SN-A1",
      ts: T0 - 1000,
      values: { phase_a_voltage: 230, phase_a_power: 100, phase_a_current: 2 },
    },
  ]);
  await p.close();
});

Deno.test("online false, any later message and silence drive the status", async () => {
  const { p, status, tick, now } = setup({ silenceMs: 60_000 });
  p.preload([A, B]);
  p.handle(`${A.prefix}/online`, "true");
  tick(1000);
  p.handle(`${A.prefix}/online`, "false");
  tick(1000);
  p.handle(`${A.prefix}/status/em:0`, em(230));
  tick(59_999);
  p.sweep();
  await settle();
  const a = status.events.filter((e) => e.serial === "SN-A1");
  assert.deepEqual(a.map((e) => [e.status, e.reason]), [
    ["online", undefined],
    ["offline", "online_false"],
    ["online", undefined],
  ]);
  const b = status.events.filter((e) => e.serial === "SN-B2");
  assert.deepEqual(b.map((e) => [e.status, e.reason]), [["offline", "silence"]], "B never spoke");
  tick(1);
  p.sweep();
  p.sweep();
  await settle();
  assert.deepEqual(status.current("SN-A1"), {
    serial: "SN-A1",
    ts: now(),
    status: "offline",
    reason: "silence",
  });
  assert.equal(status.events.length, 5, "a sweep reports a device once");
  await p.close();
});

Deno.test("errors of the store, the status sink and the directory are counted, not thrown", async () => {
  const { p, store, status, directory } = setup();
  p.preload([A]);
  store.writeFails = new Error("disk full");
  p.handle(`${A.prefix}/status/em:0`, em(230));
  p.writePending();
  store.writeFails = null;
  store.flushFails = new Error("locked");
  await p.flush();
  store.flushFails = null;
  status.failWith = new Error("kv down");
  p.handle(`${A.prefix}/online`, "false");
  directory.failWith = new Error("kv down");
  p.handle(`${B.prefix}/status/em:0`, em(230));
  await settle();
  status.failWith = null;
  p.handle(`${A.prefix}/status/em:0`, em(231));
  await p.close();
  const s = p.stats();
  assert.equal(s.dropped.store_error, 1);
  assert.equal(s.errors.store, 2, "write() threw and flush() rejected");
  assert.equal(s.errors.status, 2, "seen() and offline() threw");
  assert.equal(s.errors.directory, 1);
  assert.equal(s.dropped.directory_error, 1);
  assert.equal(s.stored, 1, "the last reading went through");
});

Deno.test("invalid fields inside good messages are counted", async () => {
  const { p } = setup();
  p.preload([A]);
  p.handle(`${A.prefix}/status/em:0`, '{"a_voltage":230,"b_voltage":"x","c_pf":9}');
  await p.close();
  assert.equal(p.stats().invalidFields, 2);
  assert.equal(p.stats().stored, 1);
});

Deno.test("status objects take the device's clock from its last frame, for a minute", async () => {
  const { p, store, tick } = setup();
  p.preload([A]);
  // A backlog: the frame was sent 5 s before it arrives.
  p.handle(`${A.prefix}/events/rpc`, frame(T0 - 5_000, 1));
  tick(3);
  p.handle(`${A.prefix}/status/emdata:0`, '{"id":0,"total_act":1000}');
  tick(60_000);
  p.handle(`${A.prefix}/status/emdata:0`, '{"id":0,"total_act":1001}');
  await p.flush();
  assert.deepEqual(store.samples.map((s) => s.ts - T0), [-5_000, -4_997, 60_003]);
  await p.close();
});

Deno.test("durable() resolves once the messages handled so far are flushed to the store", async () => {
  const { p, store } = setup();
  p.preload([A]);
  p.handle(`${A.prefix}/status/em:0`, em(120));
  p.handle(`${A.prefix}/status/em:0`, em(121)); // same instant: one sample
  const first = p.durable();
  assert.equal(p.durable(), first, "messages waiting for one commit share it");
  assert.equal(store.samples.length, 0, "nothing is written before the commit");
  await first;
  assert.equal(store.samples.length, 1);
  assert.equal(store.samples[0].values.phase_a_voltage, 121);
  // A message of an unknown prefix waits for the directory, then is in the commit.
  p.handle(`${B.prefix}/status/em:0`, em(122));
  await p.durable();
  assert.deepEqual(store.samples.map((s) => s.serial), ["SN-A1", "SN-B2"]);
});

Deno.test("durable() commits at most once per commitGapMs, however often it is asked", async () => {
  const { p, store } = setup({ commitGapMs: 25 });
  p.preload([A]);
  const until = performance.now() + 100;
  let handled = 0;
  // As ingest's acknowledgements ask: the next commit as soon as the last one ended.
  while (performance.now() < until) {
    p.handle(`${A.prefix}/status/emdata:0`, `{"id":0,"total_act":${1000 + handled}}`);
    handled++;
    const commit = p.durable();
    p.handle(`${A.prefix}/status/emdata:0`, `{"id":0,"total_act":${1000 + handled}}`);
    handled++;
    await commit;
    assert.equal(
      store.samples.at(-1)?.values.total_energy_kwh,
      (1000 + handled - 1) / 1000,
      "a message handled while its commit waits is in it",
    );
  }
  assert.ok(store.flushes <= 100 / 25 + 1, `${store.flushes} commits in 100 ms`);
  await p.close();
});

Deno.test("durable() rejects when the store failed or ingest is closed", async () => {
  const { p, store } = setup();
  p.preload([A]);
  store.flushFails = new Error("disk full");
  p.handle(`${A.prefix}/status/em:0`, em(120));
  await assert.rejects(p.durable(), /disk full/);
  store.flushFails = null;
  store.writeFails = new Error("store closed");
  p.handle(`${A.prefix}/status/em:0`, em(121));
  await assert.rejects(p.durable(), /refused/);
  store.writeFails = null;
  await p.close();
  await assert.rejects(p.durable(), /stopped/);
});
