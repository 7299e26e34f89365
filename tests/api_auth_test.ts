/** Sessions through the HTTP surface: sign-in, throttling, tokens, registration, cookies, CSRF. */
import assert from "node:assert/strict";
import { decode } from "hono/jwt";
import {
  account,
  adminTest,
  appTest,
  call,
  type CallOptions,
  cookieFrom,
  type TestApp,
  testApp,
} from "./_helpers.ts";
import { issueToken } from "../services/platform/tokens.ts";
import { getUser, listUsers } from "../db/users.ts";
import { getAccessCode } from "../db/access_codes.ts";

const EN = "auth_language=en";

/** Sends a request as if it came from the client address `address`. */
function callFrom(t: TestApp, address: string, method: string, path: string, o: CallOptions) {
  const headers: Record<string, string> = { host: "localhost", origin: "http://localhost" };
  if (o.cookie) headers.cookie = o.cookie;
  let body: string | undefined;
  if (o.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(o.json);
  }
  return t.app.request(`http://localhost${path}`, { method, headers, body }, {
    remoteAddr: { hostname: address },
  });
}

/** Signs in through POST /auth/login from `address`. */
function login(t: TestApp, email: string, password: string, address = "10.0.0.1") {
  return callFrom(t, address, "POST", "/auth/login", { json: { email, password }, cookie: EN });
}

/** Creates an access code as an admin, through the API. */
async function createCode(
  t: TestApp,
  body: { code: string; role: "customer" | "user"; assignments?: unknown; notes?: string },
) {
  const admin = await account(t, "admin");
  const res = await call(t, "POST", "/api/users/access-codes", { token: admin.token, json: body });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: number; code: string };
}

const REGISTRATION = {
  password: "secret1",
  full_name: "Ana Pérez",
  phone: "+525512345678",
  role: "user",
};

appTest("POST /auth/login answers access_token and user, and never a password hash", async (t) => {
  const { user, password } = await account(t, "customer", { email: "owner@test.mx" });
  const res = await login(t, "  Owner@Test.MX ", password);
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(!text.includes("password_hash"), text);
  assert.ok(!text.includes("$argon2id$"), text);
  const body = JSON.parse(text);
  assert.equal(typeof body.access_token, "string");
  assert.equal(body.user.id, user.id);
  assert.equal(body.user.email, "owner@test.mx");
  assert.equal(body.user.role, "customer");
  assert.equal(body.message, "Signed in successfully");
  const verify = await call(t, "GET", "/auth/verify", { token: body.access_token });
  assert.equal(verify.status, 200);
  assert.equal((await verify.json()).user.id, user.id);
});

appTest(
  "POST /auth/login refuses a wrong password with 401 in the request's language",
  async (t) => {
    const { user } = await account(t, "user");
    const res = await login(t, user.email, "wrong-password");
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), {
      message: "Invalid email or password",
      code: "invalid_credentials",
    });
    const spanish = await call(t, "POST", "/auth/login", {
      json: { email: user.email, password: "wrong-password" },
    });
    assert.equal(spanish.status, 401);
    assert.equal((await spanish.json()).message, "Correo electrónico o contraseña incorrectos");
  },
);

appTest("POST /auth/login refuses an unknown e-mail like a wrong password", async (t) => {
  const res = await login(t, "nobody@test.mx", "whatever");
  assert.equal(res.status, 401);
  assert.equal((await res.json()).message, "Invalid email or password");
});

appTest("POST /auth/login refuses a disabled account with 403 account_disabled", async (t) => {
  const { user, password } = await account(t, "user", { is_active: false });
  const res = await login(t, user.email, password);
  assert.equal(res.status, 403);
  const body = await res.json();
  assert.equal(body.code, "account_disabled");
  assert.equal(body.message, "Your account is deactivated. Please contact the administrator.");
  assert.equal(body.access_token, undefined);
});

Deno.test("POST /auth/login makes an account wait after 5 failures, a short wait even with the right password", async () => {
  let clock = Date.now();
  const t = await testApp({ now: () => clock });
  const { user, password } = await account(t, "user");
  const other = await account(t, "user");
  for (let i = 0; i < 5; i++) {
    // A different address each time: the account's own counter is what stops it.
    const res = await login(t, user.email, "wrong-password", `10.0.1.${i}`);
    assert.equal(res.status, 401, `attempt ${i + 1}`);
  }
  const blocked = await login(t, user.email, password, "10.0.1.99");
  assert.equal(blocked.status, 429);
  const retry = Number(blocked.headers.get("retry-after"));
  assert.ok(retry > 0 && retry <= 30, `Retry-After ${retry}`);
  const body = await blocked.json();
  assert.equal(body.code, "too_many_attempts");
  assert.equal(body.access_token, undefined);
  assert.match(body.message, /^Too many failed attempts\. Try again in 1 min\.$/);
  // Another account from the same addresses is not affected.
  const fine = await login(t, other.user.email, other.password, "10.0.1.0");
  assert.equal(fine.status, 200);
  // After the wait the right password gets in.
  clock += retry * 1000;
  assert.equal((await login(t, user.email, password, "10.0.1.99")).status, 200);
  t.close();
});

appTest("POST /auth/login throttles an address after 20 failures across accounts", async (t) => {
  const { user, password } = await account(t, "admin");
  for (let i = 0; i < 20; i++) {
    // Four failures each for five accounts: no account reaches its own limit.
    const res = await login(t, `victim${i % 5}@test.mx`, "wrong-password", "10.0.2.1");
    assert.equal(res.status, 401, `attempt ${i + 1}`);
  }
  const blocked = await login(t, user.email, password, "10.0.2.1");
  assert.equal(blocked.status, 429);
  assert.ok(Number(blocked.headers.get("retry-after")) > 0);
  const elsewhere = await login(t, user.email, password, "10.0.2.2");
  assert.equal(elsewhere.status, 200);
});

appTest(
  "POST /auth/login answers 400 with an errors map for bad JSON or missing fields",
  async (t) => {
    const bad = await call(t, "POST", "/auth/login", { jsonText: "{not json", cookie: EN });
    assert.equal(bad.status, 400);
    const badBody = await bad.json();
    assert.equal(badBody.message, "The request body must be valid JSON.");
    assert.deepEqual(badBody.errors, {});

    const empty = await call(t, "POST", "/auth/login", { json: {}, cookie: EN });
    assert.equal(empty.status, 400);
    assert.deepEqual((await empty.json()).errors, {
      email: "Email is required",
      password: "Password is required",
    });

    for (const json of [null, [], "x", 42, { email: 5, password: true }]) {
      const res = await call(t, "POST", "/auth/login", { json, cookie: EN });
      assert.equal(res.status, 400, JSON.stringify(json));
      const body = await res.json();
      assert.equal(typeof body.errors, "object", JSON.stringify(json));
      assert.ok(Object.keys(body.errors).length > 0, JSON.stringify(json));
    }
    const noBody = await call(t, "POST", "/auth/login", { cookie: EN });
    assert.equal(noBody.status, 400);
  },
);

appTest("GET /auth/verify answers the user with a token and 401 without one", async (t) => {
  const { user, token } = await account(t, "customer");
  const ok = await call(t, "GET", "/auth/verify", { token });
  assert.equal(ok.status, 200);
  const body = await ok.json();
  assert.equal(body.user.id, user.id);
  assert.equal(body.user.email, user.email);
  assert.equal(body.user.role, "customer");
  assert.equal(body.user.password_hash, undefined);

  const none = await call(t, "GET", "/auth/verify", { cookie: EN });
  assert.equal(none.status, 401);
  assert.equal((await none.json()).message, "User not authenticated: Missing token");
  const garbage = await call(t, "GET", "/auth/verify", { token: "not.a.token" });
  assert.equal(garbage.status, 401);
});

appTest(
  "GET /auth/verify refuses an expired token, a foreign signature and a disabled account",
  async (t) => {
    const { user } = await account(t, "user");
    const expired = await issueToken(t.deps.secret, user, Date.now() - 2 * 3600_000, 3600);
    assert.equal((await call(t, "GET", "/auth/verify", { token: expired })).status, 401);
    const foreign = await issueToken("another-secret-another-secret-0123", user, Date.now(), 3600);
    assert.equal((await call(t, "GET", "/auth/verify", { token: foreign })).status, 401);

    const disabled = await account(t, "user", { is_active: false });
    assert.equal((await call(t, "GET", "/auth/verify", { token: disabled.token })).status, 401);
  },
);

Deno.test("POST /auth/refresh answers a new token that expires later", async () => {
  let clock = Date.now();
  const t = await testApp({ now: () => clock });
  const { user } = await account(t, "user");
  const old = await issueToken(t.deps.secret, user, clock, 3600);
  clock += 57 * 60_000;
  const res = await call(t, "POST", "/auth/refresh", { token: old });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(typeof body.access_token, "string");
  assert.equal(body.expires_in, t.deps.config.tokenTtlMinutes * 60);
  const before = decode(old).payload.exp as number;
  const after = decode(body.access_token).payload.exp as number;
  assert.ok(after > before, `${after} > ${before}`);
  assert.equal(decode(body.access_token).payload.sub, user.id);
  // The old token stops working at its expiry, the new one does not.
  clock += 5 * 60_000;
  assert.equal((await call(t, "GET", "/auth/verify", { token: old })).status, 401);
  assert.equal((await call(t, "GET", "/auth/verify", { token: body.access_token })).status, 200);

  assert.equal((await call(t, "POST", "/auth/refresh", {})).status, 401);
  t.close();
});

Deno.test("a cookie session with under 5 minutes left gets a fresh cookie on the next page", async () => {
  const clock = Date.now();
  const t = await testApp({ now: () => clock });
  const { user } = await account(t, "user");
  const nearlyExpired = await issueToken(t.deps.secret, user, clock - 56 * 60_000, 60 * 60);
  const res = await call(t, "GET", "/user", { cookie: `token=${nearlyExpired}` });
  assert.equal(res.status, 200);
  const fresh = cookieFrom(res, "token");
  assert.ok(fresh && fresh !== `token=${nearlyExpired}`, String(fresh));
  const exp = decode(fresh.slice("token=".length)).payload.exp as number;
  assert.ok(exp * 1000 > clock + 50 * 60_000);

  const plenty = await issueToken(t.deps.secret, user, clock, 60 * 60);
  const again = await call(t, "GET", "/user", { cookie: `token=${plenty}` });
  assert.equal(again.status, 200);
  assert.equal(cookieFrom(again, "token"), null);
  t.close();
});

appTest(
  "POST /auth/register creates a tenant bound to the code's units and marks the code used",
  async (t) => {
    const code = await createCode(t, {
      code: "TENA2345",
      role: "user",
      assignments: { units: ["12:unit_1", "12:unit_2"] },
    });
    const res = await call(t, "POST", "/auth/register", {
      cookie: EN,
      json: { ...REGISTRATION, email: " New.Tenant@Test.MX ", accessCode: " tena2345 " },
    });
    assert.equal(res.status, 201, await res.clone().text());
    const text = await res.text();
    assert.ok(!text.includes("password_hash"));
    const body = JSON.parse(text);
    assert.equal(body.message, "Registration complete, you can sign in now.");
    assert.equal(body.user.email, "new.tenant@test.mx");
    assert.equal(body.user.role, "user");
    assert.equal(body.user.full_name, "Ana Pérez");
    assert.equal(body.user.phone, "+525512345678");
    assert.equal(body.user.language, "en");
    assert.deepEqual(body.user.assignments, { stations: [], units: ["12:unit_1", "12:unit_2"] });

    const stored = await getAccessCode(t.deps.kv, code.id);
    assert.equal(stored?.is_used, true);
    assert.equal(stored?.used_by_id, body.user.id);
    assert.equal(stored?.used_by_email, "new.tenant@test.mx");

    const signIn = await login(t, "new.tenant@test.mx", REGISTRATION.password);
    assert.equal(signIn.status, 200);
    assert.equal((await signIn.json()).user.role, "user");
  },
);

appTest(
  "POST /api/auth/register with a customer code creates a customer bound to its stations",
  async (t) => {
    const code = await createCode(t, {
      code: "CUST2345",
      role: "customer",
      assignments: { stations: [7, 9] },
    });
    const res = await call(t, "POST", "/api/auth/register", {
      json: { ...REGISTRATION, email: "owner@test.mx", accessCode: "CUST2345" },
    });
    assert.equal(res.status, 201);
    const { user } = await res.json();
    assert.equal(user.role, "customer");
    assert.deepEqual(user.assignments, { stations: [7, 9], units: [] });
    const stored = await getAccessCode(t.deps.kv, code.id);
    assert.equal(stored?.used_by_id, user.id);
    assert.equal(stored?.used_by_email, "owner@test.mx");
  },
);

appTest("POST /auth/register refuses a code that was already used", async (t) => {
  await createCode(t, { code: "XNCE2345", role: "user" });
  const first = await call(t, "POST", "/auth/register", {
    json: { ...REGISTRATION, email: "first@test.mx", accessCode: "XNCE2345" },
  });
  assert.equal(first.status, 201);
  const second = await call(t, "POST", "/api/auth/register", {
    cookie: EN,
    json: { ...REGISTRATION, email: "second@test.mx", accessCode: "XNCE2345" },
  });
  assert.equal(second.status, 400);
  const body = await second.json();
  assert.equal(body.message, "Registration failed");
  assert.deepEqual(body.errors, { accessCode: "This access code has already been used" });
  assert.equal((await listUsers(t.deps.kv)).some((u) => u.email === "second@test.mx"), false);
});

appTest("POST /auth/register refuses an unknown or malformed code", async (t) => {
  await createCode(t, { code: "REAL2345", role: "user" });
  const before = (await listUsers(t.deps.kv)).length;
  for (const accessCode of ["FAKE2345", "BAD", ""]) {
    const res = await call(t, "POST", "/auth/register", {
      cookie: EN,
      json: { ...REGISTRATION, email: "x@test.mx", accessCode },
    });
    assert.equal(res.status, 400, accessCode);
    const body = await res.json();
    assert.equal(body.message, "Registration failed");
    assert.deepEqual(
      body.errors,
      {
        accessCode: {
          "FAKE2345": "This access code cannot be used with this email",
          "BAD": "This access code is not valid",
          "": "Access code is required",
        }[accessCode],
      },
      accessCode,
    );
  }
  assert.equal((await listUsers(t.deps.kv)).length, before);
});

appTest(
  "POST /auth/register refuses a registered e-mail as it refuses a wrong code, code unused",
  async (t) => {
    const { user } = await account(t, "customer", { email: "taken@test.mx" });
    const code = await createCode(t, { code: "FREE2345", role: "user" });
    const answer = async (email: string, accessCode: string) => {
      const res = await call(t, "POST", "/auth/register", {
        cookie: EN,
        json: { ...REGISTRATION, email, accessCode },
      });
      return { status: res.status, body: await res.json() };
    };
    const taken = await answer("TAKEN@test.mx", "FREE2345");
    // The same answer as a code that does not exist: nothing tells that the e-mail has an account.
    assert.deepEqual(taken, await answer("fresh@test.mx", "FAKE2345"));
    assert.deepEqual(taken, {
      status: 400,
      body: {
        message: "Registration failed",
        errors: { accessCode: "This access code cannot be used with this email" },
      },
    });
    assert.equal((await getAccessCode(t.deps.kv, code.id))?.is_used, false);
    assert.equal((await getUser(t.deps.kv, user.id))?.role, "customer");
  },
);

appTest("POST /auth/register answers 400 with field errors for bad input, never 500", async (t) => {
  const res = await call(t, "POST", "/auth/register", {
    cookie: EN,
    json: { email: "bad", password: "123", full_name: "X1", phone: "+52123", accessCode: "" },
  });
  assert.equal(res.status, 400);
  assert.deepEqual((await res.json()).errors, {
    email: "Please enter a valid email",
    password: "Password must be at least 6 characters",
    full_name: "Use letters and spaces only",
    phone: "The phone number needs 8 to 15 digits",
    accessCode: "Access code is required",
  });
  const bad = await call(t, "POST", "/api/auth/register", { jsonText: "]" });
  assert.equal(bad.status, 400);
});

appTest("ten concurrent registrations with one code create exactly one account", async (t) => {
  const code = await createCode(t, { code: "RACE2345", role: "user" });
  const before = (await listUsers(t.deps.kv)).length;
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(t, "POST", "/auth/register", {
        cookie: EN,
        json: { ...REGISTRATION, email: `racer${i}@test.mx`, accessCode: "RACE2345" },
      })),
  );
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [201, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
  const winner = await results.find((r) => r.status === 201)!.json();
  for (const r of results.filter((r) => r.status === 400)) {
    assert.deepEqual((await r.json()).errors, {
      accessCode: "This access code has already been used",
    });
  }
  const users = await listUsers(t.deps.kv);
  assert.equal(users.length, before + 1);
  assert.deepEqual(
    users.filter((u) => u.email.startsWith("racer")).map((u) => u.id),
    [winner.user.id],
  );
  const stored = await getAccessCode(t.deps.kv, code.id);
  assert.equal(stored?.used_by_id, winner.user.id);
  assert.equal(stored?.used_by_email, winner.user.email);
});

const FORM = {
  full_name: "Luis Gómez",
  email: "luis@test.mx",
  phone_country: "MX",
  phone: "55 1234 5678",
  password: "secret1",
  confirm_password: "secret1",
  accessCode: "fxrm2345",
  terms: "on",
};

appTest("POST /register with a valid form redirects to /login?registered=1", async (t) => {
  const code = await createCode(t, { code: "FXRM2345", role: "user" });
  const res = await call(t, "POST", "/register", { form: FORM, cookie: EN });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/login?registered=1");
  const stored = await getAccessCode(t.deps.kv, code.id);
  assert.equal(stored?.used_by_email, "luis@test.mx");
  const user = await getUser(t.deps.kv, stored!.used_by_id!);
  assert.equal(user?.phone, "+525512345678");
  assert.equal(user?.role, "user");

  const page = await call(t, "GET", "/login?registered=1", { cookie: EN });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Registration complete, you can sign in now\./);
});

appTest(
  "POST /register with bad input re-renders the form with inline errors and status 400",
  async (t) => {
    await createCode(t, { code: "FXRM2345", role: "user" });
    const before = (await listUsers(t.deps.kv)).length;
    const res = await call(t, "POST", "/register", {
      cookie: EN,
      form: { ...FORM, email: "not-an-email", confirm_password: "other1", terms: "" },
    });
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    const html = await res.text();
    assert.match(html, /Please enter a valid email/);
    assert.match(html, /Passwords do not match/);
    assert.match(html, /You must accept the terms and conditions/);
    assert.match(html, /value="Luis Gómez"/);
    assert.equal((await listUsers(t.deps.kv)).length, before);

    const used = await call(t, "POST", "/register", {
      cookie: EN,
      form: { ...FORM, accessCode: "ZZZZ2345" },
    });
    assert.equal(used.status, 400);
    const usedHtml = await used.text();
    assert.match(usedHtml, /Registration failed/);
    assert.match(usedHtml, /This access code cannot be used with this email/);
  },
);

appTest("POST /login sets an httpOnly token cookie and redirects to the role's home", async (t) => {
  const { user, password } = await account(t, "customer");
  const res = await call(t, "POST", "/login", { form: { email: user.email, password } });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/customer");
  const raw = res.headers.getSetCookie().find((c) => c.startsWith("token="));
  assert.ok(raw, "a token cookie");
  assert.match(raw, /HttpOnly/i);
  assert.match(raw, /SameSite=Lax/i);
  assert.match(raw, /Path=\//);
  const cookie = cookieFrom(res, "token")!;
  const home = await call(t, "GET", "/customer", { cookie });
  assert.equal(home.status, 200);
});

adminTest(
  "POST /login keeps next within the role's area and ignores foreign targets",
  async ({ t, admin }) => {
    const customer = await account(t, "customer");
    const go = async (who: typeof admin, next: string) => {
      const res = await call(t, "POST", "/login", {
        form: { email: who.user.email, password: who.password, next },
      });
      assert.equal(res.status, 303, next);
      return res.headers.get("location");
    };
    assert.equal(await go(admin, "/admin/settings?x=1"), "/admin/settings?x=1");
    assert.equal(await go(admin, "/notifications"), "/notifications");
    assert.equal(await go(customer, "/admin/settings"), "/customer");
    assert.equal(await go(customer, "//evil.example/steal"), "/customer");
    assert.equal(await go(customer, "https://evil.example/"), "/customer");
  },
);

appTest(
  "POST /login with a wrong password re-renders the page with 401 and no cookie",
  async (t) => {
    const { user } = await account(t, "user");
    const res = await call(t, "POST", "/login", {
      cookie: EN,
      form: { email: user.email, password: "wrong-password" },
    });
    assert.equal(res.status, 401);
    assert.match(await res.text(), /Invalid email or password/);
    assert.equal(cookieFrom(res, "token"), null);
  },
);

adminTest(
  "a cookie-authenticated POST with a foreign Origin is refused 403 and changes nothing",
  async ({ t, admin }) => {
    const cookie = `token=${admin.token}`;
    const before = (await listUsers(t.deps.kv)).length;
    const create = await call(t, "POST", "/api/users", {
      cookie,
      origin: "https://evil.example",
      json: {
        email: "intruder@test.mx",
        full_name: "Intruder",
        role: "admin",
        password: "secret1",
      },
    });
    assert.equal(create.status, 403);
    assert.equal((await listUsers(t.deps.kv)).length, before);

    const settings = await call(t, "POST", "/admin/settings", {
      cookie,
      origin: "https://evil.example",
      form: { email: "hijacked@test.mx", full_name: "Hijacked", phone: "", language: "de" },
    });
    assert.equal(settings.status, 403);
    const stored = await getUser(t.deps.kv, admin.user.id);
    assert.equal(stored?.email, admin.user.email);
    assert.equal(stored?.language, "en");

    // A cookie post without Origin or Sec-Fetch-Site is refused too; Sec-Fetch-Site cross-site as well.
    const bare = await call(t, "POST", "/auth/logout", { cookie, origin: null });
    assert.equal(bare.status, 403);
    const crossSite = await call(t, "PUT", "/api/users/profile", {
      cookie,
      origin: null,
      headers: { "sec-fetch-site": "cross-site" },
      json: { email: "x@test.mx", full_name: "X", language: "de" },
    });
    assert.equal(crossSite.status, 403);
    assert.equal((await getUser(t.deps.kv, admin.user.id))?.email, admin.user.email);

    // The same post from the portal's own origin goes through.
    const own = await call(t, "POST", "/admin/settings", {
      cookie,
      form: { email: admin.user.email, full_name: "Renamed Admin", phone: "", language: "en" },
    });
    assert.equal(own.status, 303);
    assert.equal((await getUser(t.deps.kv, admin.user.id))?.full_name, "Renamed Admin");
  },
);

appTest("POST /logout clears the token and last_route cookies and goes to /login", async (t) => {
  const { token } = await account(t, "user");
  const visit = await call(t, "GET", "/user/settings", { cookie: `token=${token}` });
  assert.equal(cookieFrom(visit, "last_route"), "last_route=%2Fuser%2Fsettings");
  const res = await call(t, "POST", "/logout", {
    cookie: `token=${token}; last_route=%2Fuser%2Fsettings`,
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/login");
  const cleared = res.headers.getSetCookie();
  for (const name of ["token", "last_route"]) {
    const c = cleared.find((c) => c.startsWith(`${name}=`));
    assert.ok(c, `${name} cleared`);
    assert.match(c, new RegExp(`^${name}=;`));
    assert.match(c, /Max-Age=0/i);
  }
  const json = await call(t, "POST", "/auth/logout", { cookie: `token=${token}` });
  assert.equal(json.status, 200);
  assert.ok(cookieFrom(json, "token") === "token=");
});

appTest("GET / redirects by role, and to /login without a session", async (t) => {
  const root = await call(t, "GET", "/");
  assert.equal(root.headers.get("location"), "/login");
  for (const role of ["admin", "customer", "user"] as const) {
    const { token } = await account(t, role);
    const res = await call(t, "GET", "/", { cookie: `token=${token}` });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), role === "user" ? "/user" : `/${role}`);
  }
});
