/**
 * API keys: made by an admin (shown once, stored as a hash), `Authorization: Bearer pk_…`
 * works on the JSON API within its scope only, the last use is written at most once a minute,
 * revoking works at once, an expired key or one whose maker is no longer an admin is refused,
 * and making and revoking are audited.
 */
import assert from "node:assert/strict";
import {
  account,
  call,
  type TestAccount,
  type TestApp,
  testApp,
  testsWith,
  zoneBody,
} from "./_helpers.ts";
import type { ApiKey } from "../core/api_keys.ts";
import { listApiKeys } from "../db/api_keys.ts";
import { updateUser } from "../db/users.ts";

const T0 = Date.parse("2026-11-02T15:00:00.000Z");

async function world() {
  const clock = { now: T0 };
  const t = await testApp({ now: () => clock.now });
  return { t, clock, admin: await account(t, "admin") };
}

/** `Deno.test` in a fresh {@link world}, closed however the test ends. */
const worldTest = testsWith(world, (w) => w.t.close());

/** Makes a key through the page; answers the key shown and its record. */
async function makeKey(t: TestApp, admin: TestAccount, scope: string, days = 30) {
  const res = await call(t, "POST", "/admin/api-keys", {
    token: admin.token,
    form: { name: `${scope} key`, scope, expires_in_days: String(days) },
  });
  assert.equal(res.status, 200);
  const token = /data-testid="api-key-token"[^>]*>(pk_[A-Za-z0-9_-]+)</.exec(await res.text())?.[1];
  assert.ok(token);
  const keys = await listApiKeys(t.deps.kv);
  const key = keys.find((k) => k.name === `${scope} key`) as ApiKey;
  return { token, key };
}

async function status(t: TestApp, method: string, path: string, token: string, json?: unknown) {
  const res = await call(t, method, path, { token, json });
  await res.body?.cancel();
  return res.status;
}

worldTest(
  "scopes: read-only GETs, billing its API, devices theirs; never accounts or the log",
  async ({ t, admin }) => {
    const ro = await makeKey(t, admin, "read_only");
    const billing = await makeKey(t, admin, "billing");
    const devices = await makeKey(t, admin, "devices");

    assert.equal(await status(t, "GET", "/api/zones", ro.token), 200);
    assert.equal(await status(t, "GET", "/api/devices", ro.token), 200);
    assert.equal(await status(t, "GET", "/api/bills", ro.token), 200);
    assert.equal(await status(t, "POST", "/api/zones", ro.token, zoneBody()), 403);
    assert.equal(await status(t, "GET", "/api/users", ro.token), 403);
    assert.equal(await status(t, "GET", "/api/audit-log", ro.token), 403);
    assert.equal(await status(t, "GET", "/auth/verify", ro.token), 403);
    assert.equal(await status(t, "GET", "/admin", ro.token), 403);

    assert.equal(await status(t, "POST", "/api/zones", billing.token, zoneBody()), 201);
    assert.equal(await status(t, "GET", "/api/bills", billing.token), 200);
    assert.equal(await status(t, "GET", "/api/devices", billing.token), 403);

    assert.equal(await status(t, "GET", "/api/devices", devices.token), 200);
    assert.equal(await status(t, "GET", "/api/devices/stats", devices.token), 200);
    assert.equal(await status(t, "GET", "/api/bills", devices.token), 403);
    assert.equal(await status(t, "POST", "/api/zones", devices.token, zoneBody()), 403);

    // The change made with a key is audited as its maker, naming the key.
    const log = await (await call(t, "GET", "/api/audit-log?kind=zone.create", {
      token: admin.token,
    })).json();
    assert.equal(log.entries[0].actor.id, admin.user.id);
    assert.equal(log.entries[0].actor.api_key, billing.key.id);
  },
);

worldTest("a key is shown once and stored only as its hash", async ({ t, admin }) => {
  const { token } = await makeKey(t, admin, "read_only");
  const list = await call(t, "GET", "/admin/api-keys", { token: admin.token });
  assert.ok(!(await list.text()).includes(token));
  for await (const e of t.deps.kv.list({ prefix: [] })) {
    assert.ok(!JSON.stringify(e.key).includes(token), "not in a key");
    const text = JSON.stringify(e.value, (_k, v) => typeof v === "bigint" ? String(v) : v);
    assert.ok(!text.includes(token), "not in a value");
  }
});

worldTest(
  "revoked at once, expired refused, a maker no longer admin ends the key; audited",
  async ({ t, clock, admin }) => {
    const a = await makeKey(t, admin, "read_only", 1);
    const b = await makeKey(t, admin, "devices", 30);
    assert.equal(await status(t, "GET", "/api/zones", a.token), 200);
    const revoked = await call(t, "POST", `/admin/api-keys/${b.key.id}/revoke`, {
      token: admin.token,
    });
    assert.equal(revoked.status, 303);
    assert.equal(await status(t, "GET", "/api/devices", b.token), 401);

    clock.now += 24 * 3_600_000;
    assert.equal(await status(t, "GET", "/api/zones", a.token), 401, "expired");

    const c = await makeKey(t, admin, "read_only");
    assert.equal(await status(t, "GET", "/api/zones", c.token), 200);
    await updateUser(t.deps.kv, admin.user.id, { role: "customer" }, clock.now);
    assert.equal(await status(t, "GET", "/api/zones", c.token), 401);

    const log = await (await call(t, "GET", "/api/audit-log", {
      token: (await account(t, "admin")).token,
    })).json();
    const kinds = log.entries.map((e: { kind: string }) => e.kind);
    assert.equal(kinds.filter((k: string) => k === "api_key.create").length, 3);
    const rev = log.entries.find((e: { kind: string }) => e.kind === "api_key.revoke");
    assert.equal(rev.object, `api_key:${b.key.id}`);
    assert.equal(rev.before.revoked_at, null);
    assert.equal(rev.after.revoked_at, T0);
  },
);

worldTest("the last use is written at most once a minute", async ({ t, clock, admin }) => {
  const { token, key } = await makeKey(t, admin, "read_only");
  const lastUse = async () =>
    (await listApiKeys(t.deps.kv)).find((k) => k.id === key.id)!.last_used_at;
  assert.equal(await lastUse(), null);
  assert.equal(await status(t, "GET", "/api/zones", token), 200);
  assert.equal(await lastUse(), T0);
  let writes = 0;
  const watch = t.deps.kv.watch([["api_keys", key.id]]).getReader();
  const counting = (async () => {
    for (;;) {
      const r = await watch.read();
      if (r.done) return;
      writes++;
    }
  })();
  for (let i = 0; i < 5; i++) {
    clock.now += 10_000;
    assert.equal(await status(t, "GET", "/api/zones", token), 200);
  }
  assert.equal(await lastUse(), T0, "not written within the minute");
  clock.now += 15_000;
  assert.equal(await status(t, "GET", "/api/zones", token), 200);
  assert.equal(await lastUse(), T0 + 65_000);
  await watch.cancel();
  await counting;
  assert.ok(writes <= 2, `${writes} writes`);
});

worldTest(
  "the create form refuses a bad name, scope or expiry, changing nothing",
  async ({ t, admin }) => {
    for (
      const form of [
        { name: "", scope: "read_only", expires_in_days: "30" },
        { name: "x", scope: "root", expires_in_days: "30" },
        { name: "x", scope: "billing", expires_in_days: "0" },
        { name: "x", scope: "billing", expires_in_days: "abc" },
      ]
    ) {
      const res = await call(t, "POST", "/admin/api-keys", { token: admin.token, form });
      assert.equal(res.status, 400, JSON.stringify(form));
      await res.body?.cancel();
    }
    assert.deepEqual(await listApiKeys(t.deps.kv), []);
    const unknown = await call(t, "POST", "/admin/api-keys/abcdefabcdef/revoke", {
      token: admin.token,
    });
    assert.equal(unknown.status, 400);
    await unknown.body?.cancel();
  },
);
