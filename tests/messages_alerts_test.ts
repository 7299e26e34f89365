/**
 * The owner's and admins' mails over real SMTP (issue 28): the station's monthly statement with
 * its PDF, meters gone offline, a payment that failed to reconcile (once per charge and reason),
 * and the daily digest of failed messages (only for an admin who turned it on; once a day).
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { call } from "./_helpers.ts";
import { runBilling } from "../services/billing/mod.ts";
import { createStatusService } from "../services/devices/mod.ts";
import { deliverDue, queueFailedDigest } from "../services/messages/mod.ts";
import { hook, world } from "./_payment_world.ts";
import { webhooksIdle } from "../services/payments/mod.ts";

Deno.test("the owner's statement of the month with its PDF; the admins' offline meters mail", async () => {
  const w = await billingWorld({
    now: Date.parse("2026-12-03T15:00:00.000Z"),
    owner: { email: "owner@test.mx", language: "en" },
    admin: { email: "admin@test.mx", language: "de" },
  });
  const r = await receiver();
  try {
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 300);
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    await deliverDue(w.t.deps, r.senders());
    const [statement, ...more] = mailsTo(r, "owner@test.mx");
    assert.equal(more.length, 0);
    assert.equal(statement.subject, "Statement of Norte for November 2026");
    assert.equal(statement.attachments[0]?.contentType, "application/pdf");
    // Both meters go silent: the admin is told of each, in German.
    const status = createStatusService(w.t.deps);
    const t0 = w.clock.now;
    for (const serial of ["SIM-A", "SIM-B"]) await status.online(serial, t0);
    for (const serial of ["SIM-A", "SIM-B"]) await status.offline(serial, t0 + 60_000, "silence");
    await deliverDue(w.t.deps, r.senders());
    const offline = mailsTo(r, "admin@test.mx");
    assert.deepEqual(offline.map((m) => m.subject), ["Zähler offline: 1", "Zähler offline: 1"]);
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("a payment that fails to reconcile is mailed to the admins once", () =>
  world(async (p) => {
    const r = await receiver();
    try {
      const admin = p.w.adminUser.email;
      await deliverDue(p.w.t.deps, r.senders());
      for (let i = 0; i < 2; i++) {
        await hook(p, { type: "charge.succeeded", transaction: { id: "trnotknown000000000" } });
        await webhooksIdle();
      }
      await deliverDue(p.w.t.deps, r.senders());
      const mails = mailsTo(r, admin);
      assert.equal(mails.length, 1);
      assert.match(mails[0].subject ?? "", /^A payment needs a look: Unknown charge$/);
      assert.match(mails[0].text ?? "", /trnotknown000000000/);
    } finally {
      await r.stop();
    }
  }));

Deno.test("the failed-messages digest: only to an admin who turned it on, once a day", async () => {
  const w = await billingWorld({
    now: Date.parse("2026-12-03T15:00:00.000Z"),
    admin: { email: "admin@test.mx", language: "en" },
    tenants: [{ email: "ana@test.mx" }],
  });
  const r = await receiver();
  try {
    await meter(w.t, "SIM-A", "2026-11", 200);
    r.refuse.set("ana@test.mx", 550);
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    await deliverDue(w.t.deps, r.senders());
    // Off by default: nothing for the admin.
    assert.equal(await queueFailedDigest(w.t.deps), 1);
    await deliverDue(w.t.deps, r.senders());
    assert.equal(mailsTo(r, "admin@test.mx").length, 0);
    // Turned on: the next day's digest comes, once however often it is asked for.
    const on = await call(w.t, "POST", "/admin/settings/messages", {
      token: w.admin,
      form: { kind: "failed_digest" },
    });
    assert.equal(on.status, 303);
    w.clock.now += 20 * 3_600_000; // the next day, 05:00
    await queueFailedDigest(w.t.deps);
    await queueFailedDigest(w.t.deps);
    await deliverDue(w.t.deps, r.senders());
    assert.deepEqual(mailsTo(r, "admin@test.mx").map((m) => m.subject), ["Messages not sent: 1"]);
  } finally {
    await r.stop();
    w.t.close();
  }
});
