/**
 * A new password may not be a common one, one character repeated, nor the account's e-mail; the
 * refusal names the field.
 */
import assert from "node:assert/strict";
import { account, call, putProfile, seedAccessCode, testApp } from "../_helpers.ts";
import { listUsers } from "../../db/users.ts";
import { passwordProblem } from "../../core/password_rules.ts";

Deno.test("passwordProblem: common passwords and the e-mail, whatever the case", () => {
  assert.equal(passwordProblem("123456", "a@b.mx"), "validation.password_common");
  assert.equal(passwordProblem(" Password1 ", "a@b.mx"), "validation.password_common");
  assert.equal(
    passwordProblem("Ana.Perez@Test.mx", "ana.perez@test.mx"),
    "validation.password_is_email",
  );
  assert.equal(passwordProblem("ana.perez", "ana.perez@test.mx"), "validation.password_is_email");
  assert.equal(passwordProblem("Quiet-Harbor-71", "ana.perez@test.mx"), null);
});

Deno.test("passwordProblem: one character repeated, whatever its case or length", () => {
  for (const p of ["aaaaaa", "AaAaAaAa", "zzzzzzzzzzzzzzzz", "ññññññ", "      ", "$$$$$$$"]) {
    assert.equal(passwordProblem(p, "a@b.mx"), "validation.password_repeated", p);
  }
  assert.equal(passwordProblem("aaaaab", "a@b.mx"), null);
});

Deno.test("registration, account creation and the profile refuse weak passwords and change nothing", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  await seedAccessCode(t.deps.kv, "TENA2345", "user");
  const before = (await listUsers(t.deps.kv)).length;
  const weak = [["ana@test.mx", "123456"], ["ana@test.mx", "ana@test.mx"], [
    "ana@test.mx",
    "aaaaaa",
  ]];
  for (const [email, password] of weak) {
    const res = await call(t, "POST", "/auth/register", {
      cookie: "auth_language=en",
      json: {
        email,
        password,
        full_name: "Ana Pérez",
        phone: "+525512345678",
        role: "user",
        accessCode: "TENA2345",
      },
    });
    assert.equal(res.status, 400, password);
    assert.ok((await res.json()).errors.password, password);
  }
  const create = await call(t, "POST", "/api/users", {
    token: admin.token,
    json: { email: "b@test.mx", full_name: "Bea", role: "user", password: "qwerty123" },
  });
  assert.equal(create.status, 400);
  assert.ok((await create.json()).errors.password);
  const me = await account(t, "user");
  const profile = await putProfile(t, me, {
    new_password: "password",
    confirm_password: "password",
  });
  assert.equal(profile.status, 400);
  assert.ok((await profile.json()).errors.new_password);
  assert.equal((await listUsers(t.deps.kv)).length, before + 1);
  t.close();
});
