/**
 * A form posted after the session ended is kept and comes back after sign-in (issue "what a
 * newcomer trips on", item 5): the post lands on the sign-in page saying so, the same account
 * signing in gets its form page with the values (never the password), once; another account
 * signing in on that browser never sees them; a post with no session of ours keeps nothing.
 */
import assert from "node:assert/strict";
import { account, appTest, call, cookieFrom, type TestApp } from "./_helpers.ts";
import { issueToken } from "../services/platform/tokens.ts";
import type { StoredUser } from "../db/users.ts";

/** A cookie holding a token of `user` that expired an hour ago. */
async function expiredCookie(t: TestApp, user: StoredUser): Promise<string> {
  const then = Date.now() - 2 * 3_600_000;
  const token = await issueToken(t.deps.secret, user, then, 3_600, {
    ver: 0,
    authTime: Math.floor(then / 1000),
  });
  return `token=${token}`;
}

/** The settings form as a tenant posts it. */
const settingsForm = (full_name: string) => ({
  email: "kept@test.mx",
  full_name,
  phone: "5512345678",
  language: "es",
  current_password: "secret123",
  new_password: "",
  confirm_password: "",
});

/** Signs in through the form; answers the session cookie. */
async function signIn(t: TestApp, email: string, password: string, next: string) {
  const res = await call(t, "POST", "/login", { form: { email, password, next } });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), next);
  return cookieFrom(res, "token")!;
}

appTest(
  "a form posted after the session ended comes back to its account after sign-in",
  async (t) => {
    const me = await account(t, "user", { email: "kept@test.mx", language: "es" });
    const post = await call(t, "POST", "/user/settings", {
      cookie: await expiredCookie(t, me.user),
      headers: { referer: "http://localhost/user/settings" },
      form: settingsForm("Nombre Editado Después"),
    });
    assert.equal(post.status, 303);
    const location = post.headers.get("location")!;
    assert.equal(location, "/login?next=%2Fuser%2Fsettings&expired=1&kept=1");
    const kept = cookieFrom(post, "kept_form");
    assert.ok(kept, "the browser is given the kept form's id");
    assert.equal(cookieFrom(post, "auth_language"), "auth_language=es", "the account's language");
    // Nothing was saved.
    const login = await call(t, "GET", location);
    assert.match(await login.text(), /sus cambios se conservaron/);
    // Signed in again: the form page carries the values back, without the password.
    const session = await signIn(t, me.user.email, me.password, "/user/settings");
    const page = await call(t, "GET", "/user/settings", { cookie: `${session}; ${kept}` });
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /data-testid="kept-form"/);
    assert.match(html, /Nombre Editado Después/);
    assert.doesNotMatch(html, /secret123/);
    assert.match(html, /data-island="FormRestore"/);
    assert.match(cookieFrom(page, "kept_form") ?? "", /^kept_form=$/);
    // Given back once.
    const again = await call(t, "GET", "/user/settings", { cookie: `${session}; ${kept}` });
    assert.doesNotMatch(await again.text(), /Nombre Editado Después/);
  },
);

appTest("a kept form is never shown to another account signing in on that browser", async (t) => {
  const a = await account(t, "user", { email: "kept@test.mx" });
  const b = await account(t, "user");
  const post = await call(t, "POST", "/user/settings", {
    cookie: await expiredCookie(t, a.user),
    form: settingsForm("Secreto De A"),
  });
  const kept = cookieFrom(post, "kept_form")!;
  const session = await signIn(t, b.user.email, b.password, "/user/settings");
  const page = await call(t, "GET", "/user/settings", { cookie: `${session}; ${kept}` });
  assert.doesNotMatch(await page.text(), /Secreto De A|kept-form/);
  // Still A's alone: with its id, only A's session gets it back.
  const sa = await signIn(t, a.user.email, a.password, "/user/settings");
  const later = await call(t, "GET", "/user/settings", { cookie: `${sa}; ${kept}` });
  assert.match(await later.text(), /Secreto De A/);
});

appTest("a form post without a session of ours keeps nothing and goes to sign-in", async (t) => {
  const forged = await issueToken(
    "another-secret-another-secret-0123456789",
    {
      id: 1,
      role: "user",
    },
    Date.now() - 7_200_000,
    60,
  );
  for (const cookie of [undefined, `token=${forged}`]) {
    const res = await call(t, "POST", "/user/settings", { cookie, form: settingsForm("X") });
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/login\?next=/);
    assert.equal(cookieFrom(res, "kept_form"), null);
  }
  // A cross-site post is refused before anything is kept.
  const me = await account(t, "user");
  const cross = await call(t, "POST", "/user/settings", {
    cookie: await expiredCookie(t, me.user),
    origin: "https://evil.example",
    form: settingsForm("X"),
  });
  assert.equal(cross.status, 403);
  assert.equal(cookieFrom(cross, "kept_form"), null);
});

appTest(
  "the session cookie outlives its token so that a late post names its account",
  async (t) => {
    const me = await account(t, "user");
    const res = await call(t, "POST", "/login", {
      form: { email: me.user.email, password: me.password },
    });
    const header = res.headers.getSetCookie().find((c) => c.startsWith("token="))!;
    const maxAge = Number(/Max-Age=(\d+)/i.exec(header)![1]);
    assert.ok(maxAge > t.deps.config.tokenTtlMinutes * 60, header);
  },
);

appTest("an account keeps one form at a time: a newer late post replaces the older", async (t) => {
  const me = await account(t, "user", { email: "kept@test.mx" });
  const cookie = await expiredCookie(t, me.user);
  const first = await call(t, "POST", "/user/settings", {
    cookie,
    form: settingsForm("Primero"),
  });
  const second = await call(t, "POST", "/user/settings", {
    cookie,
    form: settingsForm("Segundo"),
  });
  const session = await signIn(t, me.user.email, me.password, "/user/settings");
  const old = await call(t, "GET", "/user/settings", {
    cookie: `${session}; ${cookieFrom(first, "kept_form")}`,
  });
  assert.doesNotMatch(await old.text(), /Primero|kept-form/);
  const page = await call(t, "GET", "/user/settings", {
    cookie: `${session}; ${cookieFrom(second, "kept_form")}`,
  });
  assert.match(await page.text(), /Segundo/);
});

appTest(
  "a late post whose fields are named like an object's own (constructor, toString) is kept, never a 500",
  async (t) => {
    const me = await account(t, "user", { email: "kept@test.mx" });
    const post = await call(t, "POST", "/user/settings", {
      cookie: await expiredCookie(t, me.user),
      form: { ...settingsForm("Con Campos Raros"), constructor: "x", toString: "y" },
    });
    assert.equal(post.status, 303);
    assert.ok(cookieFrom(post, "kept_form"), "its text fields are kept");
  },
);
