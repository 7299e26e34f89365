import assert from "node:assert/strict";
import { isCleanName } from "./name_text.ts";

Deno.test("isCleanName() refuses control characters and bidirectional overrides", () => {
  for (const bad of ["Ana\u0000", "\tAna", "Ana\r\nPérez", "Ana\u007f", "\u202eanA", "A\u2066b"]) {
    assert.equal(isCleanName(bad), false, JSON.stringify(bad));
  }
  for (const good of ["Ana Pérez", "O'Brien-Núñez", "Torre Norte 2", "محمد", "李雷"]) {
    assert.equal(isCleanName(good), true, good);
  }
});
