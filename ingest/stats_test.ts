import assert from "node:assert/strict";
import { StatsCounter } from "./stats.ts";
import { throttledLog } from "./_log.ts";

Deno.test("StatsCounter's per-minute figures cover the last 60 seconds only", () => {
  const s = new StatsCounter();
  const t0 = 1_000_000;
  s.received(t0);
  s.received(t0 + 30_000);
  s.stored(5, t0 + 30_000);
  s.dropped("flood", t0 + 59_000);
  assert.deepEqual(s.snapshot(t0 + 59_500).perMinute, { received: 2, stored: 5, dropped: 1 });
  assert.deepEqual(s.snapshot(t0 + 60_000).perMinute, { received: 1, stored: 5, dropped: 1 });
  assert.deepEqual(s.snapshot(t0 + 200_000).perMinute, { received: 0, stored: 0, dropped: 0 });
  s.received(t0 + 200_000); // reuses the slot of t0 + 20 s, t0 + 80 s, ...
  const snap = s.snapshot(t0 + 200_000);
  assert.deepEqual(snap.perMinute, { received: 1, stored: 0, dropped: 0 });
  assert.equal(snap.received, 3, "totals are kept");
  assert.equal(snap.dropped.flood, 1);
});

Deno.test("throttledLog() writes a key once per interval and says how many it left out", () => {
  const lines: unknown[] = [];
  let now = 0;
  const log = throttledLog({ log: (_l, m, c) => lines.push([m, c]) }, 10_000, () => now);
  log.log("a", "warn", "first", { x: 1 });
  log.log("a", "warn", "again", { x: 2 });
  log.log("b", "warn", "other");
  now = 9_999;
  log.log("a", "warn", "still quiet");
  now = 10_000;
  log.log("a", "warn", "later", { x: 3 });
  assert.deepEqual(lines, [
    ["first", { x: 1 }],
    ["other", undefined],
    ["later", { x: 3, suppressed: 2 }],
  ]);
});
