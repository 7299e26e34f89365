/** The notifications API and the client log sink, through `app.request`. */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { account, appTest, call, type TestApp, testApp } from "./_helpers.ts";
import { createNotification, getNotification, resolveNotification } from "../db/notifications.ts";
import type { Notification, NotificationType } from "../core/types.ts";
import { LOG_CAP, LOG_RATE_PER_MINUTE, loggingRoutes } from "../routes/api/logging.ts";
import { sessionMiddleware } from "../routes/_session.ts";
import type { AppEnv } from "../routes/_deps.ts";

let clockOffset = 0;

/** Stores a notification for `userId`, each one a millisecond after the previous. */
function notify(
  t: TestApp,
  userId: number,
  type: NotificationType = "bill_created",
  subject: string | null = null,
): Promise<Notification> {
  return createNotification(t.deps.kv, {
    user_id: userId,
    type,
    priority: type === "payment_overdue" || type === "sensor_offline" ? "high" : "low",
    title: `${type} title`,
    message: `${type} message`,
    subject_id: subject,
  }, Date.now() + ++clockOffset);
}

/** The ids of the notifications a GET answers. */
async function listIds(t: TestApp, token: string, query = ""): Promise<number[]> {
  const res = await call(t, "GET", `/api/notifications${query}`, { token });
  assert.equal(res.status, 200, query);
  return (await res.json()).notifications.map((n: Notification) => n.id);
}

appTest("GET /api/notifications filters active, resolved and all, newest first", async (t) => {
  const me = await account(t, "user");
  const a = await notify(t, me.user.id, "bill_created");
  const b = await notify(t, me.user.id, "payment_received");
  const c = await notify(t, me.user.id, "payment_overdue");
  const resolved = await call(t, "POST", `/api/notifications/${b.id}/resolve`, {
    token: me.token,
  });
  assert.equal(resolved.status, 200);

  assert.deepEqual(await listIds(t, me.token), [c.id, a.id], "active by default");
  assert.deepEqual(await listIds(t, me.token, "?status=active"), [c.id, a.id]);
  assert.deepEqual(await listIds(t, me.token, "?status=resolved"), [b.id]);
  assert.deepEqual(await listIds(t, me.token, "?status=all"), [c.id, b.id, a.id]);
  assert.deepEqual(await listIds(t, me.token, "?status=all&limit=2"), [c.id, b.id]);
  assert.deepEqual(await listIds(t, me.token, "?limit=1"), [c.id]);

  const res = await call(t, "GET", "/api/notifications?status=all&limit=50", { token: me.token });
  const [first] = (await res.json()).notifications;
  assert.deepEqual(Object.keys(first).sort(), [
    "created_at",
    "id",
    "link",
    "message",
    "params",
    "priority",
    "status",
    "subject_id",
    "title",
    "type",
    "user_id",
  ]);
  assert.equal(first.type, "payment_overdue");
  assert.equal(first.priority, "high");
  assert.equal(first.status, "active");
});

appTest(
  "GET /api/notifications answers at most 50 and refuses bad status or limit with 400",
  async (t) => {
    const me = await account(t, "customer");
    for (let i = 0; i < 55; i++) await notify(t, me.user.id);
    assert.equal((await listIds(t, me.token)).length, 50);
    assert.equal((await listIds(t, me.token, "?limit=50&status=all")).length, 50);
    for (
      const q of ["?limit=51", "?limit=0", "?limit=-3", "?limit=abc", "?limit=2.5", "?status=open"]
    ) {
      const res = await call(t, "GET", `/api/notifications${q}`, { token: me.token });
      assert.equal(res.status, 400, q);
      const body = await res.json();
      assert.equal(typeof body.errors, "object", q);
      assert.ok(Object.keys(body.errors).length === 1, q);
    }
  },
);

appTest("GET /api/notifications/count answers the number of active notifications", async (t) => {
  const me = await account(t, "user");
  const other = await account(t, "user");
  const count = async (token: string) => {
    const res = await call(t, "GET", "/api/notifications/count", { token });
    assert.equal(res.status, 200);
    return (await res.json()).total_count;
  };
  assert.equal(await count(me.token), 0);
  const a = await notify(t, me.user.id);
  await notify(t, me.user.id, "payment_overdue");
  await notify(t, me.user.id, "sensor_offline", "42");
  await notify(t, other.user.id);
  assert.equal(await count(me.token), 3);
  assert.equal(await count(other.token), 1);
  await call(t, "POST", `/api/notifications/${a.id}/resolve`, { token: me.token });
  assert.equal(await count(me.token), 2);
});

appTest("POST /api/notifications/{id}/resolve resolves one's own notification once", async (t) => {
  const me = await account(t, "user");
  const note = await notify(t, me.user.id, "payment_overdue");
  const res = await call(t, "POST", `/api/notifications/${note.id}/resolve`, { token: me.token });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.message, "Notification resolved");
  assert.equal(body.notification.id, note.id);
  assert.equal(body.notification.status, "resolved");
  assert.equal((await getNotification(t.deps.kv, me.user.id, note.id))?.status, "resolved");

  const again = await call(t, "POST", `/api/notifications/${note.id}/resolve`, { token: me.token });
  assert.equal(again.status, 400);
  assert.equal((await again.json()).message, "This notification is already resolved");
});

appTest(
  "POST /api/notifications/{id}/resolve refuses sensor_offline with 400 'Device still offline'",
  async (t) => {
    const me = await account(t, "customer");
    const note = await notify(t, me.user.id, "sensor_offline", "sensor-7");
    const res = await call(t, "POST", `/api/notifications/${note.id}/resolve`, { token: me.token });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).message, "Device still offline");
    assert.equal((await getNotification(t.deps.kv, me.user.id, note.id))?.status, "active");
  },
);

appTest("another user's notification is 404 to list, resolve and count", async (t) => {
  const owner = await account(t, "user");
  const intruder = await account(t, "user");
  const admin = await account(t, "admin");
  const note = await notify(t, owner.user.id, "bill_created");
  for (const who of [intruder, admin]) {
    const res = await call(t, "POST", `/api/notifications/${note.id}/resolve`, {
      token: who.token,
    });
    assert.equal(res.status, 404, who.user.role);
    assert.equal((await res.json()).message, "Notification not found");
    assert.deepEqual(await listIds(t, who.token, "?status=all"), []);
  }
  assert.equal((await getNotification(t.deps.kv, owner.user.id, note.id))?.status, "active");
  for (const id of ["abc", "0", "1.5", "99999"]) {
    const res = await call(t, "POST", `/api/notifications/${id}/resolve`, { token: owner.token });
    assert.equal(res.status, 404, id);
  }
});

/** Posts a log entry from `address` at the app's clock. */
function postLog(t: TestApp, body: unknown, address = "10.1.0.1", raw?: string) {
  return t.app.request("http://localhost/logging", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost", host: "localhost" },
    body: raw ?? JSON.stringify(body),
  }, { remoteAddr: { hostname: address } });
}

appTest("POST /logging accepts a valid entry with or without a session", async (t) => {
  const res = await postLog(t, {
    level: "error",
    message: "chart failed",
    context: { component: "Chart", status: 500 },
  });
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.equal(body.ok, true);
  assert.equal(typeof body.seq, "number");
  const line = t.deps.log.lines.find((l) => l.client_message === "chart failed");
  assert.equal(line?.component, "Chart");

  const { token } = await account(t, "user");
  const signedIn = await call(t, "POST", "/logging", {
    token,
    json: { level: "info", message: "hello" },
  });
  assert.equal(signedIn.status, 201);
  assert.equal((await signedIn.json()).seq, body.seq + 1);
  const api = await call(t, "POST", "/api/logging", { json: { level: "debug", message: "x" } });
  assert.equal(api.status, 201);
});

appTest("POST /logging refuses bad entries with 400", async (t) => {
  const bad: [unknown, string | undefined][] = [
    [{ level: "fatal", message: "x" }, undefined],
    [{ level: "info" }, undefined],
    [{ message: "x" }, undefined],
    [{ level: "info", message: "x".repeat(2001) }, undefined],
    [{ level: "info", message: "x", context: "text" }, undefined],
    [{ level: "info", message: "x", context: { big: "y".repeat(9000) } }, undefined],
    [null, "{not json"],
    [null, ""],
    [null, "null"],
  ];
  for (const [i, [body, raw]] of bad.entries()) {
    const res = await postLog(t, body, `10.2.0.${i}`, raw);
    assert.equal(res.status, 400, raw ?? JSON.stringify(body).slice(0, 80));
    assert.equal(typeof (await res.json()).errors, "object");
  }
  assert.equal(t.deps.log.lines.filter((l) => l.message === "client log").length, 0);
});

appTest("POST /logging keeps at most 500 entries, dropping the oldest", async (t) => {
  // The sink as the app mounts it, behind the real session middleware, so its kept entries
  // can be read.
  const sink = loggingRoutes(t.deps);
  const app = new Hono<AppEnv>();
  app.use(sessionMiddleware(t.deps));
  app.route("/logging", sink);
  const total = LOG_CAP + 20;
  for (let i = 0; i < total; i++) {
    const res = await app.request("http://localhost/logging", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ level: "info", message: `entry ${i}` }),
    }, { remoteAddr: { hostname: `10.3.${Math.floor(i / 50)}.1` } });
    assert.equal(res.status, 201, `entry ${i}`);
  }
  const kept = sink.entries();
  assert.equal(kept.length, 500);
  assert.equal(kept[0].message, "entry 20");
  assert.equal(kept.at(-1)?.message, `entry ${total - 1}`);
  assert.deepEqual(Object.keys(kept[0]).sort(), [
    "component",
    "context",
    "level",
    "message",
    "seq",
    "timestamp",
  ]);
  assert.equal(kept[0].component, "client");
});

Deno.test("POST /logging rate-limits each address per minute", async () => {
  let clock = Date.UTC(2025, 0, 1, 12, 0, 0);
  const t = await testApp({ now: () => clock });
  const entry = { level: "warn", message: "slow" };
  for (let i = 0; i < LOG_RATE_PER_MINUTE; i++) {
    const res = await postLog(t, entry, "10.4.0.1");
    assert.equal(res.status, 201, `entry ${i}`);
  }
  const limited = await postLog(t, entry, "10.4.0.1");
  assert.equal(limited.status, 429);
  assert.equal(typeof (await limited.json()).message, "string");
  assert.equal((await postLog(t, entry, "10.4.0.2")).status, 201, "another address");
  clock += 60_000;
  assert.equal((await postLog(t, entry, "10.4.0.1")).status, 201, "the next minute");
  t.close();
});

appTest(
  "the bell's count follows notifications written and resolved by another process",
  async (t) => {
    const me = await account(t, "user");
    const count = async () =>
      (await (await call(t, "GET", "/api/notifications/count", { token: me.token })).json())
        .total_count;
    assert.equal(await count(), 0);
    // Written straight to the store, as another portal process sharing it would.
    const a = await notify(t, me.user.id, "bill_created");
    await notify(t, me.user.id, "payment_received");
    assert.equal(await count(), 2);
    await resolveNotification(t.deps.kv, me.user.id, a.id);
    assert.equal(await count(), 1);
  },
);
