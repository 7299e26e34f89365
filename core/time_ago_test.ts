import assert from "node:assert/strict";
import { badgeText, timeAgo } from "./time_ago.ts";

const MIN = 60_000;

Deno.test("timeAgo() counts minutes under an hour, hours under a day, then days", () => {
  const now = 1_000_000_000_000;
  assert.deepEqual(timeAgo(now - 30_000, now), { unit: "just_now", n: 0 });
  assert.deepEqual(timeAgo(now - 59 * MIN, now), { unit: "minutes", n: 59 });
  assert.deepEqual(timeAgo(now - 60 * MIN, now), { unit: "hours", n: 1 });
  assert.deepEqual(timeAgo(now - (24 * 60 - 1) * MIN, now), { unit: "hours", n: 23 });
  assert.deepEqual(timeAgo(now - 24 * 60 * MIN, now), { unit: "days", n: 1 });
  assert.deepEqual(timeAgo(now + 5 * MIN, now), { unit: "just_now", n: 0 }, "future is now");
});

Deno.test("badgeText() is empty at zero and caps at 99+", () => {
  assert.equal(badgeText(0), "");
  assert.equal(badgeText(1), "1");
  assert.equal(badgeText(99), "99");
  assert.equal(badgeText(100), "99+");
});
