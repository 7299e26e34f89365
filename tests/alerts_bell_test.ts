/**
 * Open alerts reach the notification bell (issue 30) without becoming notifications: the badge
 * counts the reader's open, unacknowledged alerts beside their notifications (an admin's: all;
 * an owner's: their stations'; a tenant: none), the panel's alerts section links where they are
 * read (the owner's installation page lists them, read only), `GET /api/notifications/count`
 * answers them as `open_alerts`, and an acknowledgement takes the alert off at the next request.
 */
import assert from "node:assert/strict";
import { billingWorld } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { AlertEvaluator } from "../services/alerts/mod.ts";
import type { Sample } from "../db/telemetry/mod.ts";

const MIN = 60_000;

Deno.test("the bell counts the reader's open alerts and links to them; notifications stay as they were", async () => {
  const now = Date.parse("2026-03-20T18:00:00Z");
  const w = await billingWorld({ now, owner: true });
  try {
    const tenant = w.tenantTokens[0];
    const counts = async (token: string) => {
      const res = await call(w.t, "GET", "/api/notifications/count", { token });
      assert.equal(res.status, 200);
      return await res.json();
    };
    const page = async (token: string, path: string) => {
      const res = await call(w.t, "GET", path, { token });
      assert.equal(res.status, 200, path);
      return await res.text();
    };
    const bell = (html: string) => {
      const at = html.indexOf('data-testid="bell-alerts"');
      return at < 0
        ? null
        : html.slice(html.lastIndexOf("<section", at), html.indexOf("</section>", at));
    };
    const badge = (html: string) =>
      html.match(/data-testid="notification-count"[^>]*>([^<]*)</)?.[1] ?? "";
    assert.deepEqual(await counts(w.admin), { total_count: 0, open_alerts: 0 });
    assert.match(bell(await page(w.admin, "/admin"))!, /hidden/);

    const rule = await call(w.t, "POST", "/api/alerts/rules", {
      token: w.admin,
      json: { template: "high_power", kw: 5, minutes: 1 },
    });
    assert.equal(rule.status, 201);
    const evaluator = new AlertEvaluator(w.t.deps);
    await evaluator.refresh();
    const samples: Sample[] = [0, 1, 2].map((m) => ({
      serial: "SIM-A",
      ts: now - 10 * MIN + m * MIN,
      values: { total_power: 8000 },
    }));
    evaluator.samples(samples);
    await evaluator.stop();
    const [alert] = (await (await call(w.t, "GET", "/api/alerts", { token: w.admin })).json())
      .alerts;
    assert.equal(alert.state, "open");

    // The admin: one open alert in the badge and the section, linked to the open alerts.
    assert.deepEqual(await counts(w.admin), { total_count: 0, open_alerts: 1 });
    const adminPage = await page(w.admin, "/admin");
    assert.equal(badge(adminPage), "1");
    const section = bell(adminPage)!;
    assert.doesNotMatch(section, /hidden/);
    assert.match(section, /data-testid="bell-alerts-count"[^>]*>1</);
    assert.match(section, /href="\/admin\/alerts\?state=active"/);
    // The owner of the station: the same alert, leading to the installation, which lists it
    // without the admin's forms.
    assert.deepEqual(await counts(w.owner!.token), { total_count: 0, open_alerts: 1 });
    const ownerBell = bell(await page(w.owner!.token, "/customer"))!;
    assert.match(ownerBell, new RegExp(`href="/customer/installations/${w.stationId}"`));
    const installation = await page(w.owner!.token, `/customer/installations/${w.stationId}`);
    assert.match(installation, /data-testid="alerts"/);
    assert.doesNotMatch(installation, /\/admin\/alerts\/[^"]+\/acknowledge/);
    // A tenant is told of none here (theirs are insights), and no notification was made.
    assert.deepEqual(await counts(tenant), { total_count: 0, open_alerts: 0 });
    assert.equal(bell(await page(tenant, "/user")), null);
    const notes = await call(w.t, "GET", "/api/notifications?status=all", { token: w.admin });
    assert.deepEqual((await notes.json()).notifications, []);
    // The page without JavaScript says so too.
    assert.match(await page(w.admin, "/notifications"), /data-testid="page-alerts"/);

    // Acknowledged: off the bell at the next request.
    const ack = await call(w.t, "POST", `/api/alerts/${alert.id}/acknowledge`, {
      token: w.admin,
      json: { note: "on it" },
    });
    assert.equal(ack.status, 200);
    assert.deepEqual(await counts(w.admin), { total_count: 0, open_alerts: 0 });
    assert.deepEqual(await counts(w.owner!.token), { total_count: 0, open_alerts: 0 });
    assert.equal(badge(await page(w.admin, "/admin")), "");
  } finally {
    w.t.close();
  }
});
