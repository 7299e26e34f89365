/**
 * Signed-in pages answer with an ETag of what they show (issue 32): the same while nothing they
 * show changed, another one once something did (a reading, a bill, a payment, a notification),
 * a 304 without a body for a matching If-None-Match, and never a 304 for another user's tag.
 */
import assert from "node:assert/strict";
import { billingTest, meter, payBill, processPeriod, unitBillOf } from "./_billing_world.ts";
import type { BillingWorld } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { createNotification } from "../db/notifications.ts";
import { getDevice } from "../db/devices.ts";
import { moveTenantIn } from "../services/devices/mod.ts";
import { fiscal, FISCAL_A } from "./_invoice_world.ts";

/** Mid-October 2026, 12:00 in the business time zone. */
const NOW = Date.UTC(2026, 9, 15, 18, 0);

/** GET `path` as the holder of `token`, with `If-None-Match: etag` when given. */
async function page(w: BillingWorld, path: string, token: string, etag?: string | null) {
  const res = await call(w.t, "GET", path, {
    token,
    headers: etag ? { "if-none-match": etag } : {},
  });
  return { status: res.status, etag: res.headers.get("etag"), body: await res.text() };
}

/** A live reading of meter `serial` a minute ago (ten seconds after the previous one). */
async function reading(w: BillingWorld, serial: string, kw: number) {
  w.clock.now += 10_000;
  w.t.deps.telemetry.write([{
    serial,
    ts: w.clock.now - 60_000,
    values: { total_power: kw * 1000, total_energy_kwh: 5000 + kw },
  }]);
  await w.t.deps.telemetry.flush();
}

billingTest("a page keeps its ETag while nothing changes; a 304 for it has no body", {
  now: NOW,
  owner: true,
}, async (w) => {
  for (const [path, token] of [["/user", w.tenantTokens[0]], ["/customer", w.owner!.token]]) {
    const first = await page(w, path, token);
    assert.equal(first.status, 200, path);
    assert.match(first.etag ?? "", /^W\/"[0-9a-f]{32}"$/, path);
    // The page carries its tag, so its first refresh is already conditional.
    assert.ok(
      first.body.includes(`<meta name="etag" content="${first.etag!.replaceAll('"', "&quot;")}">`),
    );
    const again = await page(w, path, token);
    assert.deepEqual([again.status, again.etag], [200, first.etag], path);
    assert.equal(again.body.replace(/nonce="\w+"/g, ""), first.body.replace(/nonce="\w+"/g, ""));
    const unchanged = await page(w, path, token, first.etag);
    assert.deepEqual([unchanged.status, unchanged.etag, unchanged.body], [304, first.etag, ""]);
  }
});

billingTest("a first visit's page kept by its tag still says its styles were sent", {
  now: NOW,
}, async (w) => {
  const firstVisit = async () => {
    const res = await call(w.t, "GET", "/user", { token: w.tenantTokens[0] });
    const html = await res.text();
    const styles = res.headers.getSetCookie().find((c) => c.startsWith("styles="));
    return { etag: res.headers.get("etag"), inline: html.includes("<style"), styles };
  };
  const rendered = await firstVisit();
  const kept = await firstVisit(); // the same tag: answered from the pages kept
  assert.equal(kept.etag, rendered.etag);
  for (const visit of [rendered, kept]) {
    assert.ok(visit.inline, "a first visit carries its styles inline");
    assert.match(visit.styles ?? "", /^styles=[^;]+\.css;/);
  }
});

billingTest(
  "the tenant's dashboard and billing get a new ETag with a reading, a bill, a payment and a notification",
  {
    now: NOW,
  },
  async (w) => {
    const tenant = w.tenantTokens[0];
    await meter(w.t, "SIM-A", "2026-09", 120);
    await reading(w, "SIM-A", 1.5);
    const steps: [string, string[], () => Promise<void>][] = [
      ["a reading", ["/user"], () => reading(w, "SIM-A", 2.5)],
      ["a bill", ["/user", "/user/billing"], () => processPeriod(w, "2026-09")],
      [
        "a payment",
        ["/user", "/user/billing"],
        async () => payBill(w, (await unitBillOf(w, "2026-09")).id),
      ],
      ["a notification", ["/user", "/user/billing"], async () => {
        await createNotification(w.t.deps.kv, {
          user_id: w.tenants[0],
          type: "sensor_offline",
          priority: "high",
          title: "t",
          message: "m",
        }, NOW);
      }],
    ];
    for (const [what, paths, change] of steps) {
      const before = new Map<string, string>();
      for (const path of paths) {
        const res = await page(w, path, tenant);
        assert.equal(res.status, 200, `${path} before ${what}`);
        before.set(path, res.etag!);
      }
      await change();
      for (const path of paths) {
        const after = await page(w, path, tenant, before.get(path));
        assert.equal(after.status, 200, `${path} after ${what}`);
        assert.notEqual(after.etag, before.get(path), `${path} after ${what}`);
      }
    }
    // The page asked again shows the change (here the bell's count), not a page kept before it.
    assert.match((await page(w, "/user", tenant)).body, /data-testid="notification-count">[1-9]/);
  },
);

billingTest("the owner's dashboard gets a new ETag with a reading of one of its meters", {
  now: NOW,
  owner: true,
}, async (w) => {
  const before = await page(w, "/customer", w.owner!.token);
  await reading(w, "SIM-B", 3);
  const after = await page(w, "/customer", w.owner!.token, before.etag);
  assert.equal(after.status, 200);
  assert.notEqual(after.etag, before.etag);
});

billingTest("another user never gets a 304 for someone else's ETag", { now: NOW }, async (w) => {
  for (const path of ["/user", "/user/billing", "/api/notifications/count"]) {
    const mine = await page(w, path, w.tenantTokens[0]);
    const theirs = await page(w, path, w.tenantTokens[1], mine.etag);
    assert.equal(theirs.status, 200, path);
    assert.notEqual(theirs.etag, mine.etag, path);
  }
});

billingTest("the bell's count answers 304 until a notification of the user is written", {
  now: NOW,
}, async (w) => {
  const path = "/api/notifications/count";
  const first = await page(w, path, w.tenantTokens[0]);
  assert.equal((await page(w, path, w.tenantTokens[0], first.etag)).status, 304);
  await createNotification(w.t.deps.kv, {
    user_id: w.tenants[0],
    type: "sensor_offline",
    priority: "high",
    title: "t",
    message: "m",
  }, NOW);
  const after = await page(w, path, w.tenantTokens[0], first.etag);
  assert.deepEqual([after.status, JSON.parse(after.body).total_count], [200, 1]);
});

billingTest("the users page gets a new ETag with a planned move-in (a tenancy alone)", {
  now: NOW,
}, async (w) => {
  const before = await page(w, "/admin/users", w.admin);
  assert.equal(before.status, 200);
  const sensor = await getDevice(w.t.deps.kv, w.sensors[0]);
  await moveTenantIn(w.t.deps, w.tenants[1], [sensor!], { effective_from: "2026-11-01" }, {
    allowFuture: true,
  });
  const after = await page(w, "/admin/users", w.admin, before.etag);
  assert.equal(after.status, 200);
  assert.notEqual(after.etag, before.etag);
});

billingTest(
  "the tenant's billing page gets a new ETag once their fiscal data is saved (what a paid bill offers)",
  {
    now: NOW,
  },
  async (w) => {
    const before = await page(w, "/user/billing", w.tenantTokens[0]);
    assert.equal(before.status, 200);
    await fiscal({ w }, w.tenants[0], FISCAL_A);
    const after = await page(w, "/user/billing", w.tenantTokens[0], before.etag);
    assert.equal(after.status, 200);
    assert.notEqual(after.etag, before.etag);
  },
);
