import assert from "node:assert/strict";
import { isValidEmail, normalizeEmail } from "./email.ts";

Deno.test("normalizeEmail() lowercases, trims and removes inner whitespace", () => {
  assert.equal(normalizeEmail("  Ana.Perez @Example.COM \n"), "ana.perez@example.com");
  assert.equal(normalizeEmail("a\tb@c.mx"), "ab@c.mx");
});

Deno.test("isValidEmail() accepts standard addresses and refuses malformed ones", () => {
  for (const ok of ["a@b.mx", "ana.perez+casa@correo.com.mx", "x_y@sub.example.org"]) {
    assert.ok(isValidEmail(ok), ok);
  }
  for (const bad of ["", "a", "a@", "@b.mx", "a@b", "a b@c.mx", "a@@b.mx", "a@-b.mx", "a@b..mx"]) {
    assert.ok(!isValidEmail(bad), bad);
  }
  assert.ok(!isValidEmail(`${"a".repeat(250)}@b.mx`), "longer than 254 characters");
});
