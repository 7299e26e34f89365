import assert from "node:assert/strict";
import { startHealthPublisher } from "./health.ts";
import { readIngestHealth } from "../db/ingest_health.ts";
import type { SubscriberStats } from "./subscriber.ts";
import { StatsCounter } from "./stats.ts";

function stats(counter: StatsCounter, now: number): SubscriberStats {
  return {
    ...counter.snapshot(now),
    devices: { tracked: 0, online: 0, offline: 0 },
    connected: true,
    connects: 1,
  };
}

Deno.test("startHealthPublisher() writes the counters at once, again each interval, and removes them on stop", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const counter = new StatsCounter();
    const now = Date.now();
    counter.received(now);
    counter.dropped("oversized", now);
    const p = startHealthPublisher({
      kv,
      instance: "ingest-1",
      stats: () => stats(counter, Date.now()),
      log: { log() {} },
      intervalMs: 20,
    });
    await p.published();
    let h = await readIngestHealth(kv, Date.now());
    assert.equal(h.status, "running");
    assert.equal(h.total.dropped.oversized, 1);
    counter.dropped("flood", Date.now(), 4);
    await new Promise((r) => setTimeout(r, 60));
    await p.published();
    h = await readIngestHealth(kv, Date.now());
    assert.equal(h.total.dropped.flood, 4, "a later tick publishes the new counts");
    await p.stop();
    assert.equal((await readIngestHealth(kv, Date.now())).status, "not_running");
  } finally {
    kv.close();
  }
});

Deno.test("startHealthPublisher() survives a store that refuses writes and logs it once", async () => {
  const kv = await Deno.openKv(":memory:");
  kv.close();
  const lines: string[] = [];
  const p = startHealthPublisher({
    kv,
    instance: "ingest-1",
    stats: () => stats(new StatsCounter(), Date.now()),
    log: { log: (_level, message) => lines.push(message) },
    intervalMs: 10,
  });
  await new Promise((r) => setTimeout(r, 50));
  await p.published();
  await p.stop();
  assert.deepEqual(lines, ["ingest could not publish its health"]);
});
