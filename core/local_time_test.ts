import assert from "node:assert/strict";
import { dayStart, localDate, localParts, monthBounds, yearBounds } from "./local_time.ts";

const MX = -360;

Deno.test("local days start at local midnight (UTC-6 is 06:00 UTC)", () => {
  assert.equal(dayStart("2026-11-21", MX), Date.UTC(2026, 10, 21, 6));
  assert.equal(localDate(Date.UTC(2026, 10, 21, 5, 59), MX), "2026-11-20");
  assert.equal(localDate(Date.UTC(2026, 10, 21, 6, 0), MX), "2026-11-21");
});

Deno.test("dayStart() refuses malformed and impossible dates", () => {
  for (const bad of ["2026-02-30", "2026-13-01", "2026-1-1", "", "2026-11-21T00:00"]) {
    assert.throws(() => dayStart(bad, MX), RangeError, bad);
  }
});

Deno.test("month and year bounds wrap December and sit at local midnight", () => {
  assert.deepEqual(monthBounds(2026, 12, MX), {
    from: Date.UTC(2026, 11, 1, 6),
    to: Date.UTC(2027, 0, 1, 6),
  });
  assert.deepEqual(yearBounds(2026, 0), { from: Date.UTC(2026, 0, 1), to: Date.UTC(2027, 0, 1) });
  assert.deepEqual(localParts(Date.UTC(2027, 0, 1, 3), MX), { year: 2026, month: 12, day: 31 });
});
