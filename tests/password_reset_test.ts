/**
 * Password reset over real SMTP (issue 28): the mail's link works once, within 60 minutes,
 * ends every session of the account; a forged token is refused; the request answers the same
 * whether the address has an account, and is throttled per address.
 */
import assert from "node:assert/strict";
import { account, call, testApp, testsWith } from "./_helpers.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { deliverDue } from "../services/messages/mod.ts";
import { RESET_LIMITS, resetAdminPassword } from "../services/password_reset.ts";

async function world() {
  const clock = { now: Date.now() };
  const t = await testApp({ now: () => clock.now });
  t.deps.config.publicUrl = new URL("https://portal.example.mx");
  const r = await receiver();
  const tenant = await account(t, "user", { email: "ana@test.mx", language: "es" });
  return { t, r, clock, tenant };
}

/** `Deno.test` in a {@link world}, its mail receiver stopped and app closed however it ends. */
const worldTest = testsWith(world, async (w) => {
  await w.r.stop();
  w.t.close();
});

const forgot = (t: Awaited<ReturnType<typeof world>>["t"], email: string, ip = "10.0.0.1") =>
  t.app.request("/api/auth/forgot-password", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ email }),
  });

const reset = (t: Awaited<ReturnType<typeof world>>["t"], token: string, password: string) =>
  t.app.request("/api/auth/reset-password", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password }),
  });

const login = (t: Awaited<ReturnType<typeof world>>["t"], password: string) =>
  t.app.request("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "ana@test.mx", password }),
  });

/** The token of the latest reset mail to ana@test.mx. */
function tokenOf(r: Awaited<ReturnType<typeof receiver>>): string {
  const m = mailsTo(r, "ana@test.mx").findLast((m) => /contraseña/.test(m.subject ?? ""));
  const link = /https:\/\/portal\.example\.mx\/reset-password\?token=(\S+)/.exec(m?.text ?? "");
  assert.ok(link, "no reset link in the mail");
  return decodeURIComponent(link[1]);
}

worldTest(
  "reset: the mailed link sets a new password once and ends every session",
  async ({ t, r, tenant }) => {
    assert.equal((await call(t, "GET", "/auth/verify", { token: tenant.token })).status, 200);
    assert.equal((await forgot(t, "ana@test.mx")).status, 200);
    await deliverDue(t.deps, r.senders());
    const token = tokenOf(r);
    assert.equal((await reset(t, token, "a much better passphrase")).status, 200);
    assert.equal((await login(t, "a much better passphrase")).status, 200);
    assert.equal((await login(t, "secret123")).status, 401);
    // The token issued before the reset no longer works.
    assert.equal((await call(t, "GET", "/auth/verify", { token: tenant.token })).status, 401);
    // Used once: the same link is refused.
    const again = await reset(t, token, "another good passphrase");
    assert.equal(again.status, 400);
    assert.match((await again.json()).errors.token, /not valid|no es válido|ungültig/);
    // The account is told its password changed.
    await deliverDue(t.deps, r.senders());
    assert.ok(mailsTo(r, "ana@test.mx").some((m) => m.subject === "Su contraseña fue cambiada"));
  },
);

worldTest(
  "reset: an expired, a forged or a weak one is refused and changes nothing",
  async ({ t, r, clock }) => {
    await forgot(t, "ana@test.mx");
    await deliverDue(t.deps, r.senders());
    const token = tokenOf(r);
    const forged = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    assert.equal((await reset(t, forged, "a much better passphrase")).status, 400);
    const weak = await reset(t, token, "password");
    assert.equal(weak.status, 400);
    assert.ok((await weak.json()).errors.password);
    clock.now += 61 * 60_000;
    assert.equal((await reset(t, token, "a much better passphrase")).status, 400);
    assert.equal((await login(t, "secret123")).status, 200);
  },
);

worldTest(
  "forgot: the same answer for an unknown address, no mail; throttled per address",
  async ({ t, r }) => {
    const known = await forgot(t, "ana@test.mx");
    const unknown = await forgot(t, "nobody@test.mx");
    assert.equal(known.status, unknown.status);
    assert.deepEqual(await known.json(), await unknown.json());
    await deliverDue(t.deps, r.senders());
    assert.equal(r.mails.length, 1);
    for (let i = 1; i < RESET_LIMITS.perEmail; i++) await forgot(t, "ana@test.mx", `10.0.1.${i}`);
    const throttled = await forgot(t, "ana@test.mx", "10.0.2.1");
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers.get("retry-after")) > 0);
  },
);

worldTest(
  "reset-admin: the admin gets a new password printed once, its sessions end, it is told",
  async ({ t, r }) => {
    const admin = await account(t, "admin", { email: "root@test.mx", language: "en" });
    const done = await resetAdminPassword(t.deps, null, null);
    assert.equal(done?.email, "root@test.mx");
    assert.equal(done!.password.length, 16);
    assert.equal((await call(t, "GET", "/auth/verify", { token: admin.token })).status, 401);
    const signIn = await t.app.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "root@test.mx", password: done!.password }),
    });
    assert.equal(signIn.status, 200);
    assert.equal(await resetAdminPassword(t.deps, "nobody@test.mx", null), null);
    await deliverDue(t.deps, r.senders());
    assert.deepEqual(mailsTo(r, "root@test.mx").map((m) => m.subject), [
      "Your password was changed",
    ]);
  },
);
