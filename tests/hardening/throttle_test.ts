/** The sign-in throttle: reserved before verifying, progressive waits, proxies only when trusted. */
import assert from "node:assert/strict";
import { account, type TestApp, testApp } from "../_helpers.ts";
import { loadConfig } from "../../services/platform/config.ts";

function login(
  t: TestApp,
  email: string,
  password: string,
  address: string,
  headers: Record<string, string> = {},
) {
  return t.app.request("http://localhost/auth/login", {
    method: "POST",
    headers: {
      host: "localhost",
      origin: "http://localhost",
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify({ email, password }),
  }, { remoteAddr: { hostname: address } });
}

Deno.test("200 parallel wrong passwords for one account: exactly 5 are verified", async () => {
  const t = await testApp({ now: () => 1_800_000_000_000 });
  const { user } = await account(t, "admin");
  const answers = await Promise.all(
    Array.from({ length: 200 }, () => login(t, user.email, "wrong-password", "10.9.0.1")),
  );
  const statuses = answers.map((r) => r.status);
  await Promise.all(answers.map((r) => r.body?.cancel()));
  assert.equal(statuses.filter((s) => s === 401).length, 5);
  assert.equal(statuses.filter((s) => s === 429).length, 195);
  t.close();
});

Deno.test("a guesser waits longer and longer; the owner from elsewhere waits at most 30 s", async () => {
  let clock = 1_800_000_000_000;
  const t = await testApp({ now: () => clock });
  const { user, password } = await account(t, "admin");
  let lastWait = 0;
  for (let i = 0; i < 14; i++) {
    const res = await login(t, user.email, "wrong-password", "10.9.1.1");
    if (res.status === 429) {
      lastWait = Number(res.headers.get("retry-after"));
      clock += lastWait * 1000;
      i--;
    } else assert.equal(res.status, 401);
    await res.body?.cancel();
  }
  // The guessing address now waits far longer than the account's own short wait.
  const guesser = await login(t, user.email, "wrong-password", "10.9.1.1");
  assert.equal(guesser.status, 429);
  assert.ok(Number(guesser.headers.get("retry-after")) > 60, "guesser's wait grows");
  await guesser.body?.cancel();
  const owner = await login(t, user.email, password, "10.9.1.2");
  const wait = owner.status === 429 ? Number(owner.headers.get("retry-after")) : 0;
  await owner.body?.cancel();
  assert.ok(wait <= 30, `owner waits ${wait} s`);
  clock += wait * 1000;
  assert.equal((await login(t, user.email, password, "10.9.1.2")).status, 200);
  t.close();
});

Deno.test("X-Forwarded-For names the client only when the proxy is trusted (TRUST_PROXY)", async () => {
  const clock = 1_800_000_000_000;
  for (const trusted of [false, true]) {
    const config = loadConfig(trusted ? { TRUST_PROXY: "10.9.2.1" } : {});
    const t = await testApp({ now: () => clock, config });
    // 20 failures over several accounts from one client behind the proxy.
    for (let i = 0; i < 20; i++) {
      const res = await login(t, `victim${i % 5}@test.mx`, "wrong", "10.9.2.1", {
        "x-forwarded-for": "198.51.100.7",
      });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    }
    // Another client behind the same proxy.
    const { user, password } = await account(t, "user");
    const res = await login(t, user.email, password, "10.9.2.1", {
      "x-forwarded-for": "203.0.113.9",
    });
    await res.body?.cancel();
    assert.equal(res.status, trusted ? 200 : 429, `trusted=${trusted}`);
    t.close();
  }
});

Deno.test("TRUST_PROXY accepts IP addresses only", () => {
  assert.throws(() => loadConfig({ TRUST_PROXY: "proxy.local" }), /TRUST_PROXY/);
  assert.deepEqual(loadConfig({ TRUST_PROXY: "10.0.0.1, ::1" }).trustProxy, ["10.0.0.1", "::1"]);
});
