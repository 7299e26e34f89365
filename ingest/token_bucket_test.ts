import assert from "node:assert/strict";
import { fullBucket, takeToken } from "./token_bucket.ts";

Deno.test("takeToken() lets a burst through, then only the sustained rate", () => {
  const b = fullBucket(5, 0);
  const taken = Array.from({ length: 8 }, () => takeToken(b, 2, 5, 0));
  assert.deepEqual(taken, [true, true, true, true, true, false, false, false]);
  assert.equal(takeToken(b, 2, 5, 499), false, "under one token after 0.499 s at 2/s");
  assert.equal(takeToken(b, 2, 5, 500), true);
  assert.equal(takeToken(b, 2, 5, 500), false);
  assert.equal(takeToken(b, 2, 5, 60_000), true, "refills, capped at the burst");
  assert.equal(b.tokens, 4);
});

Deno.test("takeToken() ignores a clock that goes backwards", () => {
  const b = fullBucket(1, 1000);
  assert.equal(takeToken(b, 1, 1, 1000), true);
  assert.equal(takeToken(b, 1, 1, 10), false);
  assert.equal(b.at, 1000);
});
