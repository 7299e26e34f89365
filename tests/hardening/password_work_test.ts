/**
 * Password hashing runs off the event loop with a bounded queue; registration is throttled and
 * checks its code before it hashes or takes a user id.
 */
import assert from "node:assert/strict";
import { account, call, seedAccessCode, type TestApp, testApp } from "../_helpers.ts";
import { hashPassword, verifyPassword } from "../../services/platform/passwords.ts";
import { createPasswordPool } from "../../services/platform/password_pool.ts";
import { Refusal } from "../../services/refusal.ts";

const REGISTRATION = {
  password: "Quiet-Harbor-71",
  full_name: "Ana Pérez",
  phone: "+525512345678",
  role: "user",
};

/** A well-formed access code that does not exist. */
const wrong = (i: number) => `WRNGCD${"23456789"[i % 8]}${"23456789"[Math.floor(i / 8) % 8]}`;

function register(t: TestApp, body: Record<string, string>, address = "10.7.0.1") {
  return t.app.request("http://localhost/auth/register", {
    method: "POST",
    headers: { host: "localhost", origin: "http://localhost", "content-type": "application/json" },
    body: JSON.stringify({ ...REGISTRATION, ...body }),
  }, { remoteAddr: { hostname: address } });
}

Deno.test("hashing and verifying leave the event loop free", async () => {
  const hash = await hashPassword("warm-up-password");
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const started = performance.now();
  const results = await Promise.all([
    hashPassword("one password"),
    verifyPassword("warm-up-password", hash),
    verifyPassword("wrong", hash),
  ]);
  const took = performance.now() - started;
  clearInterval(timer);
  assert.equal(results[1], true);
  assert.equal(results[2], false);
  // A timer every 5 ms kept firing while three Argon2 runs were under way.
  assert.ok(ticks >= took / 5 / 4, `${ticks} ticks in ${Math.round(took)} ms`);
});

Deno.test("a full queue refuses at once with errors.busy", async () => {
  const pool = createPasswordPool({ workers: 1, queue: 2 });
  const jobs = Array.from(
    { length: 6 },
    () => pool.run({ op: "hash", password: "x" }).then(() => "done", (e) => e),
  );
  const out = await Promise.all(jobs);
  assert.equal(out.filter((o) => o === "done").length, 3);
  const refused = out.filter((o) => o instanceof Refusal) as Refusal[];
  assert.equal(refused.length, 3);
  assert.equal(refused[0].kind, "unavailable");
  assert.equal(refused[0].key, "errors.busy");
  await pool.close();
});

Deno.test("idle password threads end after their idle time and start again on the next job", async () => {
  const pool = createPasswordPool({ workers: 2, queue: 4, idleMs: 100 });
  assert.equal(pool.threads(), 0, "no thread before the first job");
  const hash = String(await pool.run({ op: "hash", password: "first-password" }));
  const both = Promise.all([
    pool.run({ op: "verify", password: "first-password", hash }),
    pool.run({ op: "verify", password: "other", hash }),
  ]);
  assert.equal(pool.threads(), 2, "two jobs at once take two threads");
  assert.deepEqual(await both, [true, false]);
  const deadline = Date.now() + 5_000;
  while (pool.threads() > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(pool.threads(), 0, "idle threads ended");
  assert.equal(await pool.run({ op: "verify", password: "first-password", hash }), true);
  assert.equal(pool.threads(), 1);
  await pool.close();
  assert.equal(pool.threads(), 0);
});

Deno.test("sign-in while the password queue is full is a 503 with Retry-After, not a stall", async () => {
  const t = await testApp();
  const { user, password } = await account(t, "user");
  // Other accounts' sign-ins fill the queue an account's sign-in waits in.
  const hash = await hashPassword("flood");
  const flood = Array.from(
    { length: 400 },
    () => verifyPassword("x", hash, "first").catch((e) => e),
  );
  const res = await call(t, "POST", "/auth/login", {
    json: { email: user.email, password },
    cookie: "auth_language=en",
  });
  assert.equal(res.status, 503);
  assert.ok(Number(res.headers.get("retry-after")) > 0);
  assert.match((await res.json()).message, /busy/);
  const settled = await Promise.all(flood);
  assert.ok(settled.some((e) => e instanceof Refusal));
  t.close();
});

Deno.test("a registration with a wrong code is refused without hashing and takes no user id", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  await seedAccessCode(t.deps.kv, "TENA2345", "user");
  // While the password queue is full a wrong code is still answered at once: nothing is hashed.
  const flood = Array.from({ length: 120 }, () => hashPassword("flood").catch((e) => e));
  for (let i = 0; i < 3; i++) {
    const res = await register(t, { email: `x${i}@test.mx`, accessCode: wrong(i) });
    assert.equal(res.status, 400);
    await res.body?.cancel();
  }
  await Promise.all(flood);
  const ok = await register(t, { email: "ana@test.mx", accessCode: "TENA2345" });
  assert.equal(ok.status, 201, await ok.clone().text());
  assert.equal((await ok.json()).user.id, admin.user.id + 1);
  t.close();
});

Deno.test("failed registrations from one address are throttled, other addresses are not", async () => {
  const t = await testApp({ now: () => 1_800_000_000_000 });
  for (let i = 0; i < 10; i++) {
    const res = await register(t, { email: `y${i}@test.mx`, accessCode: wrong(i) });
    assert.equal(res.status, 400, `attempt ${i + 1}`);
    await res.body?.cancel();
  }
  const blocked = await register(t, { email: "z@test.mx", accessCode: wrong(20) });
  assert.equal(blocked.status, 429);
  assert.ok(Number(blocked.headers.get("retry-after")) > 0);
  await blocked.body?.cancel();
  const other = await register(t, { email: "z@test.mx", accessCode: wrong(20) }, "10.7.0.2");
  assert.equal(other.status, 400);
  await other.body?.cancel();
  t.close();
});
