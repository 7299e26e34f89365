/**
 * "Acknowledged means stored" on Mosquitto: ingest runs as its own process on a real
 * Mosquitto, a meter streams QoS 1 frames, ingest is killed with SIGKILL mid-stream and
 * started again on the same persistent session. Whatever ingest had not acknowledged, the
 * broker sends again; whatever it had acknowledged must already be in its store. So in the
 * end the store holds every frame the meter sent, and ingest did acknowledge them: started
 * once more, it is sent none again.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { storedSamples } from "../../db/telemetry/_sqlite_chunks.ts";
import { startIngest } from "../../ingest/subscriber.ts";
import {
  connectMeters,
  forwardingStore,
  MemoryDirectory,
  MemoryStatus,
  mosquittoBroker,
  sqliteStore,
  testIngestOptions,
  testSensor,
  waitFor,
} from "./_helpers.ts";

/** Where a stored sample keeps its total power. */
const POWER = MEASUREMENT_KEYS.indexOf("total_power");
const CHILD = new URL("./_ingest_process.ts", import.meta.url).pathname;

/** Starts the ingest process and resolves once it is subscribed. */
async function spawnIngest(args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`ingest did not start: ${out}`);
    out += value;
  }
  let received = 0;
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const last = value.trim().split("\n").at(-1)?.match(/^received (\d+)$/);
      if (last) received = Number(last[1]);
    }
  })();
  return {
    /** Messages it received, as it last said (every 50 ms). */
    received: () => received,
    async kill() {
      child.kill("SIGKILL");
      const status = await child.status;
      await reader.cancel().catch(() => {});
      await reading.catch(() => {});
      return status;
    },
  };
}

Deno.test("mosquitto: every frame survives a SIGKILL of ingest mid-stream", async () => {
  const broker = await mosquittoBroker();
  const dir = await Deno.makeTempDir({ prefix: "ingest-crash-" });
  const device = testSensor("CRASH-1");
  const args = [
    broker.url,
    `crash-${crypto.randomUUID().slice(0, 8)}`,
    `${dir}/t.sqlite`,
    device.serial,
  ];
  let ingest = await spawnIngest(args);
  const [meter] = await connectMeters(broker, [device]);
  const base = Math.floor(Date.now() / 1000) - 3_600;
  const total = 3_000;
  let acked = 0;
  let killed = false;
  try {
    const stream = (async () => {
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        const frame = JSON.stringify({
          method: "NotifyStatus",
          params: { ts: base + i + 0.25, "em:0": { id: 0, total_act_power: i } },
        });
        inFlight.push(
          meter.publish(`${meter.model.prefix}/events/rpc`, frame).then(() => {
            acked++;
          }),
        );
        if (inFlight.length >= 20) await Promise.all(inFlight.splice(0));
      }
      await Promise.all(inFlight);
    })();
    // Ingest is killed while the meter streams: it has handled part of the frames, and
    // some of those are not in its store yet (it writes every 100 ms, flushes every second).
    await waitFor(() => acked >= total / 2, "half of the frames at the broker", 30_000);
    const status = await ingest.kill();
    killed = true;
    assert.equal(status.signal, "SIGKILL");
    await stream;
    assert.equal(acked, total);
    ingest = await spawnIngest(args);
    killed = false;

    const db = new DatabaseSync(`${dir}/t.sqlite`, { readOnly: true });
    try {
      const stored = () =>
        new Set(
          storedSamples(db, device.serial)
            .map((r) => ({ ts: r.ts, power: r.vals[POWER] }))
            .filter((r) => r.power !== null && r.ts === (base + r.power) * 1000 + 250)
            .map((r) => r.power),
        );
      await waitFor(() => stored().size === total, "every frame stored", 30_000).catch(() => {});
      const have = stored();
      const lost = Array.from({ length: total }, (_, i) => i).filter((i) => !have.has(i));
      assert.deepEqual(lost, [], `${lost.length} of ${total} frames lost`);
    } finally {
      db.close();
    }
    // Once stored, they were acknowledged: a third start gets nothing sent again.
    await new Promise((r) => setTimeout(r, 300));
    await ingest.kill();
    ingest = await spawnIngest(args);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(ingest.received(), 0, "the broker sent acknowledged frames again");
  } finally {
    if (!killed) await ingest.kill();
    await meter.stop();
    await broker.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("mosquitto: frames the store refused are not acknowledged, and come again once it takes them", async () => {
  const device = testSensor("REFUSE-1");
  const inner = sqliteStore();
  let refusing = true;
  const store = {
    ...forwardingStore(inner),
    write(samples: Parameters<typeof inner.write>[0]) {
      if (refusing) throw new Error("disk full");
      inner.write(samples);
    },
  };
  const broker = await mosquittoBroker();
  const directory = new MemoryDirectory([device]);
  const ingest = startIngest(
    // No flood limit: the broker sends the same frames again and again while the store refuses.
    testIngestOptions(broker, { directory, status: new MemoryStatus(), store }, {
      ratePerDevice: 1e6,
      burstPerDevice: 1e6,
    }),
  );
  const [meter] = await connectMeters(broker, [device]);
  const base = Math.floor(Date.now() / 1000) - 3_600;
  const total = 50;
  try {
    await ingest.ready;
    for (let i = 0; i < total; i++) {
      await meter.publish(
        `${meter.model.prefix}/events/rpc`,
        JSON.stringify({
          method: "NotifyStatus",
          params: { ts: base + i, "em:0": { id: 0, total_act_power: i } },
        }),
      );
    }
    await waitFor(() => ingest.stats().received >= total, "the frames at ingest");
    // Refused: ingest drops the connection rather than acknowledge, and the broker sends them again.
    await waitFor(() => ingest.stats().connects >= 2, "ingest reconnecting");
    refusing = false;
    const powers = () =>
      new Set(
        inner.written.filter((s) => s.serial === device.serial).map((s) => s.values.total_power),
      );
    await waitFor(() => powers().size === total, "every frame stored once the store takes them");
  } finally {
    await meter.stop();
    await ingest.stop();
    await inner.close();
    await broker.close();
  }
});
