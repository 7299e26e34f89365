/** Sessions end for good: sign-out, a new password, a new role or deactivation end every token. */
import assert from "node:assert/strict";
import { account, call, cookieFrom, putProfile, type TestApp, testApp } from "../_helpers.ts";
import { loadConfig } from "../../services/platform/config.ts";
import { getUser } from "../../db/users.ts";
import type { Role } from "../../core/roles.ts";

async function bearer(t: TestApp, email: string, password: string): Promise<string> {
  const res = await call(t, "POST", "/auth/login", { json: { email, password } });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).access_token;
}

async function cookie(t: TestApp, email: string, password: string): Promise<string> {
  const res = await call(t, "POST", "/login", { form: { email, password } });
  assert.equal(res.status, 303);
  return cookieFrom(res, "token")!;
}

async function valid(t: TestApp, o: { token?: string; cookie?: string }): Promise<boolean> {
  const res = await call(t, "GET", "/auth/verify", o);
  await res.body?.cancel();
  return res.status === 200;
}

/** An account of `role` signed in twice: once for a bearer token, once for the sign-in cookie. */
async function signedInTwice(t: TestApp, role: Role) {
  const { user, password } = await account(t, role);
  const token = await bearer(t, user.email, password);
  return { user, password, token, cookie: await cookie(t, user.email, password) };
}

/** Asserts that neither the bearer token nor the cookie of `s` is accepted any more. */
async function assertEnded(t: TestApp, s: { token: string; cookie: string }) {
  assert.equal(await valid(t, { token: s.token }), false, "bearer token still valid");
  assert.equal(await valid(t, { cookie: s.cookie }), false, "cookie still valid");
}

Deno.test("POST /auth/logout ends every token of the account, cookie ones too", async () => {
  const t = await testApp();
  const s = await signedInTwice(t, "user");
  assert.ok(await valid(t, { token: s.token }));
  assert.ok(await valid(t, { cookie: s.cookie }));
  const out = await call(t, "POST", "/auth/logout", { token: s.token });
  assert.equal(out.status, 200);
  await assertEnded(t, s);
  // A new sign-in works.
  assert.ok(await valid(t, { token: await bearer(t, s.user.email, s.password) }));
  t.close();
});

Deno.test("the cookie sign-out POST /logout ends the bearer tokens of the account", async () => {
  const t = await testApp();
  const s = await signedInTwice(t, "customer");
  const out = await call(t, "POST", "/logout", { cookie: s.cookie });
  assert.equal(out.status, 303);
  await assertEnded(t, s);
  t.close();
});

Deno.test("a password change ends every token of the account", async () => {
  const t = await testApp();
  const { user, password } = await account(t, "user");
  const a = await bearer(t, user.email, password);
  const b = await bearer(t, user.email, password);
  const res = await putProfile(t, { user, token: a, password }, {
    new_password: "Quiet-Harbor-71",
    confirm_password: "Quiet-Harbor-71",
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(await valid(t, { token: a }), false);
  assert.equal(await valid(t, { token: b }), false);
  assert.ok(await valid(t, { token: await bearer(t, user.email, "Quiet-Harbor-71") }));
  t.close();
});

Deno.test("a role change and a deactivation by an admin end the account's tokens", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  const { user, password } = await account(t, "customer");
  const a = await bearer(t, user.email, password);
  const put = await call(t, "PUT", `/api/users/${user.id}`, {
    token: admin.token,
    json: {
      email: user.email,
      full_name: user.full_name,
      phone: "",
      role: "user",
      is_active: true,
    },
  });
  assert.equal(put.status, 200, await put.clone().text());
  assert.equal(await valid(t, { token: a }), false);

  const b = await bearer(t, user.email, password);
  for (let i = 0; i < 2; i++) {
    // Off, then on again: the old token stays dead.
    const res = await call(t, "POST", `/api/users/${user.id}/toggle`, { token: admin.token });
    assert.equal(res.status, 200);
  }
  assert.equal(await valid(t, { token: b }), false);
  t.close();
});

Deno.test("refresh keeps a session alive only within SESSION_MAX_DAYS of its sign-in", async () => {
  let clock = 1_800_000_000_000;
  const config = loadConfig({ TOKEN_TTL_MINUTES: "1440", SESSION_MAX_DAYS: "2" });
  const t = await testApp({ now: () => clock, config });
  const { user, password } = await account(t, "user");
  let token = await bearer(t, user.email, password);
  const refresh = () => call(t, "POST", "/auth/refresh", { token });
  for (let i = 0; i < 2; i++) {
    clock += 23 * 3_600_000;
    const res = await refresh();
    assert.equal(res.status, 200, `refresh ${i + 1}`);
    const body = await res.json();
    token = body.access_token;
    assert.ok(body.expires_in <= 2 * 86400 - (i + 1) * 23 * 3600, "never past the lifetime");
  }
  clock += 23 * 3_600_000;
  const late = await refresh();
  assert.equal(late.status, 401);
  await late.body?.cancel();
  t.close();
});

Deno.test("the e-mail changes only with the current password; a refusal changes nothing", async () => {
  const t = await testApp();
  const me = await account(t, "user", { language: "en" });
  const put = (extra: Record<string, string>) =>
    call(t, "PUT", "/api/users/profile", {
      token: me.token,
      json: { email: "taken.over@test.mx", full_name: "Me", language: "en", ...extra },
    });
  for (const extra of [{}, { current_password: "not-my-password" }] as Record<string, string>[]) {
    const res = await put(extra);
    assert.equal(res.status, 400, JSON.stringify(extra));
    assert.ok((await res.json()).errors.current_password);
    assert.equal((await getUser(t.deps.kv, me.user.id))?.email, me.user.email);
  }
  const ok = await put({ current_password: me.password });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).email, "taken.over@test.mx");
  t.close();
});
