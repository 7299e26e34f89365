import assert from "node:assert/strict";
import { businessClock } from "./business_clock.ts";
import { parsePeriod } from "./periods.ts";

const MX = -360;

Deno.test("today, its text and its month are the business time zone's, not UTC's", () => {
  // 05:59 UTC on March 1st is still February 28th in Mexico City.
  const clock = businessClock(() => Date.UTC(2026, 2, 1, 5, 59), () => MX);
  assert.deepEqual(clock.today(), { year: 2026, month: 2, day: 28 });
  assert.equal(clock.todayText(), "2026-02-28");
  assert.equal(clock.month(), "2026-02");
  assert.equal(clock.todayStart(), Date.UTC(2026, 1, 28, 6));
  assert.equal(clock.localDateTime(Date.UTC(2026, 2, 1, 5, 59)), "2026-02-28 23:59");
  assert.equal(clock.localHour(Date.UTC(2026, 2, 1, 5, 59)), 23);
});

Deno.test("a period's bounds run from local midnight of its first month to the month after", () => {
  const clock = businessClock(() => 0, () => MX);
  assert.deepEqual(clock.periodBounds(parsePeriod("2026-11-12")), {
    from: Date.UTC(2026, 10, 1, 6),
    to: Date.UTC(2027, 0, 1, 6),
  });
  assert.deepEqual(clock.periodBounds(parsePeriod("2026-02")), clock.monthBounds(2026, 2));
});

Deno.test("the clock reads the instant and the offset at each call, never keeps them", () => {
  let now = Date.UTC(2026, 5, 1, 5, 59);
  let offset = MX;
  const clock = businessClock(() => now, () => offset);
  assert.equal(clock.todayText(), "2026-05-31");
  now = Date.UTC(2026, 5, 1, 6, 0);
  assert.equal(clock.todayText(), "2026-06-01");
  offset = 0;
  assert.equal(clock.month(), "2026-06");
  assert.equal(clock.dayStart("2026-06-01"), Date.UTC(2026, 5, 1));
});
