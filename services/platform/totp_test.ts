import assert from "node:assert/strict";
import { codeAt, matchedStep } from "./totp.ts";
import { stepAt } from "../../core/totp.ts";

// RFC 6238's SHA-1 secret ("12345678901234567890") in base32.
const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

Deno.test("RFC 6238 test vectors (SHA-1, last six digits)", () => {
  assert.equal(codeAt(SECRET, 59_000), "287082");
  assert.equal(codeAt(SECRET, 1_111_111_109_000), "081804");
  assert.equal(codeAt(SECRET, 2_000_000_000_000), "279037");
});

Deno.test("a code is accepted one step early or late, not two", () => {
  const t = 1_700_000_000_000;
  const code = codeAt(SECRET, t);
  assert.equal(matchedStep(SECRET, code, t, null), stepAt(t));
  assert.equal(matchedStep(SECRET, code, t + 30_000, null), stepAt(t));
  assert.equal(matchedStep(SECRET, code, t - 30_000, null), stepAt(t));
  assert.equal(matchedStep(SECRET, code, t + 60_000, null), null);
  assert.equal(matchedStep(SECRET, code, t - 60_000, null), null);
});

Deno.test("a step used once is refused after (replay), a later one accepted", () => {
  const t = 1_700_000_000_000;
  const step = stepAt(t);
  assert.equal(matchedStep(SECRET, codeAt(SECRET, t), t, step), null);
  assert.equal(matchedStep(SECRET, codeAt(SECRET, t - 30_000), t, step), null);
  assert.equal(matchedStep(SECRET, codeAt(SECRET, t + 30_000), t, step), step + 1);
  assert.equal(matchedStep(SECRET, "12345", t, null), null);
});
