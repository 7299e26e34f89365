import assert from "node:assert/strict";
import {
  ACCESS_CODE_ALPHABET,
  ACCESS_CODE_LENGTH,
  accessCodeFromBytes,
  isValidAccessCode,
  normalizeAccessCode,
} from "./access_code.ts";

Deno.test("the access code alphabet has 32 distinct symbols and none of 0, O, 1, I", () => {
  assert.equal(ACCESS_CODE_ALPHABET.length, 32);
  assert.equal(new Set(ACCESS_CODE_ALPHABET).size, 32);
  for (const ambiguous of "0O1I") assert.ok(!ACCESS_CODE_ALPHABET.includes(ambiguous), ambiguous);
});

Deno.test("accessCodeFromBytes() makes 8 symbols and uses every symbol evenly", () => {
  const counts = new Map<string, number>();
  for (let b = 0; b < 256; b += 8) {
    const bytes = new Uint8Array(8).map((_, i) => b + i);
    const code = accessCodeFromBytes(bytes);
    assert.equal(code.length, ACCESS_CODE_LENGTH);
    assert.ok(isValidAccessCode(code), code);
    for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  // 256 bytes over 32 symbols: each symbol exactly 8 times (no modulo bias).
  assert.equal(counts.size, 32);
  for (const n of counts.values()) assert.equal(n, 8);
});

Deno.test("accessCodeFromBytes() refuses fewer than 8 bytes", () => {
  assert.throws(() => accessCodeFromBytes(new Uint8Array(7)), RangeError);
});

Deno.test("isValidAccessCode() checks length and alphabet; normalizeAccessCode() uppercases", () => {
  assert.ok(isValidAccessCode("ABCD2345"));
  assert.ok(!isValidAccessCode("ABCD234"));
  assert.ok(!isValidAccessCode("ABCD23450"));
  assert.ok(!isValidAccessCode("ABCD2340"), "zero is excluded");
  assert.ok(!isValidAccessCode("ABCDI234"), "I is excluded");
  assert.equal(normalizeAccessCode("  abcd2345 "), "ABCD2345");
});
