import assert from "node:assert/strict";
import { normalizeRecovery, recoveryCodeOf } from "./totp.ts";

Deno.test("recovery codes: shape and how they are typed", () => {
  const code = recoveryCodeOf(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]));
  assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  assert.equal(normalizeRecovery(code.toLowerCase().replace("-", " ")), code);
  assert.equal(normalizeRecovery("0000-0000"), null);
});
