/**
 * A flood of wrong sign-ins does not lock a real account out (issue 25, item 4): a refusal for
 * capacity is not counted as a failed attempt, unknown e-mails take no password thread that a
 * real account's sign-in needs, and other password work does not refuse an account's sign-in.
 */
import assert from "node:assert/strict";
import { account, type TestApp, testApp } from "../_helpers.ts";
import { hashPassword, verifyPassword } from "../../services/platform/passwords.ts";

function login(t: TestApp, email: string, password: string, address: string) {
  return t.app.request("http://localhost/auth/login", {
    method: "POST",
    headers: { host: "localhost", origin: "http://localhost", "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  }, { remoteAddr: { hostname: address } });
}

async function status(res: Response | Promise<Response>): Promise<number> {
  const r = await res;
  await r.body?.cancel();
  return r.status;
}

Deno.test("sign-ins refused for capacity do not count: the right password gets in afterwards", async () => {
  // A fixed clock: a counted failure's wait would never pass.
  const t = await testApp({ now: () => 1_800_000_000_000 });
  const { user, password } = await account(t, "user");
  const hash = await hashPassword("flood-password");
  // Sign-in work of other accounts fills every place, the account's own queue included.
  const flood = Array.from(
    { length: 400 },
    () => verifyPassword("wrong", hash, "first").catch((e) => e),
  );
  const refused = [];
  for (let i = 0; i < 8; i++) {
    refused.push(await status(login(t, user.email, password, "10.8.0.1")));
  }
  assert.deepEqual(refused, Array(8).fill(503));
  await Promise.all(flood);
  assert.equal(await status(login(t, user.email, password, "10.8.0.1")), 200);
  t.close();
});

Deno.test("the right password from a new address gets in during 30 wrong sign-ins from rotating addresses", async () => {
  const t = await testApp();
  const { user, password } = await account(t, "user");
  let stop = false;
  let n = 0;
  const flooder = async (w: number) => {
    while (!stop) {
      n++;
      const address = `10.50.${n >> 8 & 255}.${n & 255}`;
      await status(login(t, `nobody-${w}-${n}@test.mx`, "wrong-guess", address));
    }
  };
  const flood = Array.from({ length: 30 }, (_, w) => flooder(w));
  await new Promise((r) => setTimeout(r, 300));
  const answers = [];
  for (let i = 0; i < 5; i++) {
    answers.push(await status(login(t, user.email, password, "10.60.0.1")));
  }
  stop = true;
  await Promise.all(flood);
  assert.deepEqual(answers, Array(5).fill(200));
  t.close();
});

Deno.test("a flood of other password work does not refuse an account's sign-in", async () => {
  const t = await testApp();
  const { user, password } = await account(t, "user");
  // Registrations and password changes hash: 120 of them fill the shared queue.
  const flood = Array.from({ length: 120 }, () => hashPassword("flood").catch((e) => e));
  assert.equal(await status(login(t, user.email, password, "10.8.1.1")), 200);
  await Promise.all(flood);
  t.close();
});
