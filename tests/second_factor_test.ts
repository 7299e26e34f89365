/**
 * The second factor: turned on in Settings with a QR code and a first code, ten recovery codes
 * shown once; sign-in asks for a code after the password (pages and API), accepts one step of
 * clock skew, refuses a code used once, takes each recovery code once, and is throttled like
 * passwords; `ADMIN_2FA_REQUIRED=true` sends an admin without one to its setup.
 */
import assert from "node:assert/strict";
import {
  account,
  call,
  cookieFrom,
  type TestAccount,
  type TestApp,
  testApp,
  testsWith,
} from "./_helpers.ts";
import { codeAt } from "../services/platform/totp.ts";
import { loadConfig } from "../services/platform/config.ts";

const T0 = Date.parse("2026-11-02T15:00:10.000Z");

async function world(env: Record<string, string> = {}) {
  const clock = { now: T0 };
  const t = await testApp({
    now: () => clock.now,
    config: loadConfig({ DATA_DIR: "/nonexistent", ...env }),
  });
  return { t, clock };
}

/** `Deno.test` in a {@link world} with the default configuration, closed however it ends. */
const worldTest = testsWith(() => world(), (w) => w.t.close());

/** Turns the factor on through the settings pages; answers the secret and recovery codes. */
async function turnOn(t: TestApp, who: TestAccount, base: string) {
  const setup = await call(t, "GET", `${base}/second-factor`, { token: who.token });
  assert.equal(setup.status, 200);
  const html = await setup.text();
  const qr = /src="data:image\/svg\+xml;base64,([^"]+)"/.exec(html)?.[1];
  assert.match(atob(qr ?? ""), /<svg[^>]*>.*<path/s, "a QR code as SVG");
  const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)?.[1];
  assert.ok(secret);
  const wrong = await call(t, "POST", `${base}/second-factor/confirm`, {
    token: who.token,
    form: { code: "000000" },
  });
  assert.equal(wrong.status, 400);
  assert.match(await wrong.text(), new RegExp(secret), "the same secret shown again");
  const ok = await call(t, "POST", `${base}/second-factor/confirm`, {
    token: who.token,
    form: { code: codeAt(secret, t.deps.now()) },
  });
  assert.equal(ok.status, 200);
  const codes = [...(await ok.text()).matchAll(/<li>([A-Z2-9]{4}-[A-Z2-9]{4})<\/li>/g)]
    .map((m) => m[1]);
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  return { secret, codes };
}

function login(t: TestApp, who: TestAccount, totp_code?: string) {
  return call(t, "POST", "/auth/login", {
    json: { email: who.user.email, password: who.password, ...(totp_code ? { totp_code } : {}) },
  });
}

worldTest(
  "API sign-in: code needed, accepted with a step of skew, never twice",
  async ({ t, clock }) => {
    const tenant = await account(t, "user");
    const { secret } = await turnOn(t, tenant, "/user/settings");
    clock.now += 60_000;

    const bare = await login(t, tenant);
    assert.equal(bare.status, 401);
    const asked = await bare.json();
    assert.equal(asked.code, "second_factor_required");
    assert.ok(asked.challenge);
    assert.ok(!("access_token" in asked));

    // The code of the step before now (the phone's clock 30 s behind): accepted once.
    const late = codeAt(secret, clock.now - 30_000);
    const first = await login(t, tenant, late);
    assert.equal(first.status, 200, await first.clone().text());
    assert.ok((await first.json()).access_token);
    const replay = await login(t, tenant, late);
    assert.equal(replay.status, 401);
    assert.equal((await replay.json()).code, "invalid_second_factor_code");

    // Two steps off either way: refused.
    clock.now += 5 * 60_000;
    for (const off of [-60_000, 60_000]) {
      const res = await login(t, tenant, codeAt(secret, clock.now + off));
      assert.equal(res.status, 401, `${off}`);
      await res.body?.cancel();
    }
    // The next step (the phone 30 s ahead): accepted.
    const ahead = await login(t, tenant, codeAt(secret, clock.now + 30_000));
    assert.equal(ahead.status, 200);
    await ahead.body?.cancel();
  },
);

worldTest(
  "the challenge step: finishes the sign-in within 5 minutes, and is no session",
  async ({ t, clock }) => {
    const tenant = await account(t, "user");
    const { secret } = await turnOn(t, tenant, "/user/settings");
    clock.now += 60_000;
    const { challenge } = await (await login(t, tenant)).json();

    const asToken = await call(t, "GET", "/auth/verify", { token: challenge });
    assert.equal(asToken.status, 401, "a challenge is not a session token");
    await asToken.body?.cancel();

    const done = await call(t, "POST", "/auth/login/second-factor", {
      json: { challenge, code: codeAt(secret, clock.now) },
    });
    assert.equal(done.status, 200, await done.clone().text());
    assert.ok((await done.json()).access_token);

    const { challenge: later } = await (await login(t, tenant)).json();
    clock.now += 6 * 60_000;
    const expired = await call(t, "POST", "/auth/login/second-factor", {
      json: { challenge: later, code: codeAt(secret, clock.now) },
    });
    assert.equal(expired.status, 401);
    await expired.body?.cancel();
  },
);

worldTest("recovery codes: each works once", async ({ t }) => {
  const tenant = await account(t, "user");
  const { codes } = await turnOn(t, tenant, "/user/settings");
  const first = await login(t, tenant, codes[3].toLowerCase());
  assert.equal(first.status, 200, await first.clone().text());
  await first.body?.cancel();
  const again = await login(t, tenant, codes[3]);
  assert.equal(again.status, 401);
  await again.body?.cancel();
  const other = await login(t, tenant, codes[4]);
  assert.equal(other.status, 200);
  await other.body?.cancel();
  const page = await call(t, "GET", "/user/settings/second-factor", { token: tenant.token });
  assert.match(await page.text(), /8 recovery codes left/);
});

worldTest("wrong codes are throttled like wrong passwords, across sign-ins", async ({ t }) => {
  const tenant = await account(t, "user");
  await turnOn(t, tenant, "/user/settings");
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await login(t, tenant, "123456");
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.ok(statuses.includes(429), `${statuses}`);
  // The right password alone does not clear the failures of the code.
  const bare = await login(t, tenant);
  assert.equal(bare.status, 429);
  await bare.body?.cancel();
});

worldTest(
  "pages: the code page after the password, a session after the code; audited",
  async ({ t, clock }) => {
    const admin = await account(t, "admin");
    const { secret } = await turnOn(t, admin, "/admin/settings");
    clock.now += 60_000;
    const pw = await call(t, "POST", "/login", {
      form: { email: admin.user.email, password: admin.password },
    });
    assert.equal(pw.status, 200);
    assert.equal(cookieFrom(pw, "token"), null, "no session before the code");
    const html = await pw.text();
    const challenge = /name="challenge" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(challenge);
    const bad = await call(t, "POST", "/login/second-factor", {
      form: { challenge, code: "000000" },
    });
    assert.equal(bad.status, 401);
    await bad.body?.cancel();
    const ok = await call(t, "POST", "/login/second-factor", {
      form: { challenge, code: codeAt(secret, clock.now) },
    });
    assert.equal(ok.status, 303);
    assert.ok(cookieFrom(ok, "token"));
    assert.equal(ok.headers.get("location"), "/admin");

    const log = await (await call(t, "GET", "/api/audit-log", { token: admin.token })).json();
    const kinds = log.entries.map((e: { kind: string }) => e.kind);
    assert.deepEqual(kinds, ["sign_in", "second_factor.enable"]);

    // Turned off with a code.
    clock.now += 60_000;
    const off = await call(t, "POST", "/admin/settings/second-factor/disable", {
      token: admin.token,
      form: { code: codeAt(secret, clock.now) },
    });
    assert.equal(off.status, 303);
    const plain = await login(t, admin);
    assert.equal(plain.status, 200);
    await plain.body?.cancel();
  },
);

Deno.test("ADMIN_2FA_REQUIRED: an admin without a second factor is sent to set it up", async () => {
  const { t } = await world({ ADMIN_2FA_REQUIRED: "true" });
  try {
    const admin = await account(t, "admin");
    const res = await call(t, "POST", "/login", {
      form: { email: admin.user.email, password: admin.password },
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/admin/settings/second-factor");
    const dash = await call(t, "GET", "/admin", { token: admin.token });
    assert.equal(dash.status, 302);
    assert.equal(dash.headers.get("location"), "/admin/settings/second-factor");
    await turnOn(t, admin, "/admin/settings");
    const after = await call(t, "GET", "/admin", { token: admin.token });
    assert.equal(after.status, 200);
    await after.body?.cancel();
    // A tenant is not asked.
    const tenant = await account(t, "user");
    const home = await call(t, "POST", "/login", {
      form: { email: tenant.user.email, password: tenant.password },
    });
    assert.equal(home.headers.get("location"), "/user");
  } finally {
    t.close();
  }
});
