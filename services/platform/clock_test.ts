import assert from "node:assert/strict";
import { clockOf } from "./clock.ts";
import type { Deps } from "../deps.ts";

const deps = (now: number) => ({ now: () => now, config: { utcOffsetMinutes: -360 } }) as Deps;

Deno.test("a use case given the dependencies with another clock reads that clock", () => {
  const base = deps(Date.UTC(2026, 5, 1, 12));
  assert.equal(clockOf(base).todayText(), "2026-06-01");
  // What a caller does to run a use case at another time (the demo's installation date).
  const earlier = { ...base, now: () => base.now() - 30 * 86_400_000 };
  assert.equal(clockOf(earlier).todayText(), "2026-05-02");
  assert.equal(clockOf(base).todayText(), "2026-06-01");
});

Deno.test("the clock follows a `now` or an offset replaced after it was first asked for", () => {
  const d = deps(Date.UTC(2026, 5, 1, 5, 59));
  const clock = clockOf(d);
  assert.equal(clock.month(), "2026-05");
  d.now = () => Date.UTC(2026, 5, 1, 6, 0);
  assert.equal(clockOf(d).month(), "2026-06");
  assert.equal(clock.month(), "2026-06");
  d.config.utcOffsetMinutes = 60;
  assert.equal(clock.localDateTime(Date.UTC(2026, 5, 1, 23, 30)), "2026-06-02 00:30");
});
