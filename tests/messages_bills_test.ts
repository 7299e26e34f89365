/**
 * Bill mails over real SMTP (issue 28): a finalized bill's mail with its PDF in each language,
 * written in the run's commit and sent once however often the run or the worker repeats, or
 * when a worker dies between the commit and the delivery.
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { call } from "./_helpers.ts";
import { runBilling, sweepOverdue } from "../services/billing/mod.ts";
import { getUnitBill } from "../db/bills.ts";
import { deliverDue, expandEvents } from "../services/messages/mod.ts";
import { claimDue, recentDeliveries, undeliverable } from "../db/outbox.ts";
import { LEASE_MS } from "../services/messages/worker.ts";

const T0 = Date.parse("2026-12-03T15:00:00.000Z");

async function billedWorld() {
  const w = await billingWorld({
    now: T0,
    tenants: [
      { language: "es", email: "ana@test.mx", full_name: "Ana" },
      { language: "en", email: "bob@test.mx", full_name: "Bob" },
      { language: "de", email: "eva@test.mx", full_name: "Eva" },
    ],
  });
  w.t.deps.config.publicUrl = new URL("https://portal.example.mx");
  await meter(w.t, "SIM-A", "2026-11", 200);
  await meter(w.t, "SIM-B", "2026-11", 300);
  await meter(w.t, "SIM-C", "2026-11", 100);
  return w;
}

Deno.test("a finalized bill's mail: in the tenant's language, amount, due date, link and PDF", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const pass = await deliverDue(w.t.deps, r.senders());
    assert.equal(pass.sent, 3);
    const cases = [
      {
        to: "ana@test.mx",
        subject: /Su factura de noviembre 2026: Depto 1/,
        body: /Importe a pagar/,
      },
      { to: "bob@test.mx", subject: /Your bill for November 2026: Depto 2/, body: /Amount due/ },
      { to: "eva@test.mx", subject: /Ihre Rechnung für November 2026: Depto 3/, body: /Zu zahlen/ },
    ];
    for (const c of cases) {
      const [m, ...more] = mailsTo(r, c.to);
      assert.equal(more.length, 0, c.to);
      assert.match(m.subject ?? "", c.subject);
      assert.match(m.text ?? "", c.body);
      assert.match(m.text ?? "", /https:\/\/portal\.example\.mx\/user\/billing\?period=2026-11/);
      assert.match(String(m.html), /<a href="https:\/\/portal\.example\.mx\/user\/billing/);
      assert.equal(m.attachments.length, 1);
      assert.equal(m.attachments[0].contentType, "application/pdf");
      assert.equal(new TextDecoder().decode(m.attachments[0].content.subarray(0, 5)), "%PDF-");
      assert.match(m.messageId ?? "", /@portal\.example\.mx>?$/);
    }
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("a repeated run and a repeated worker pass send no mail twice", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    await deliverDue(w.t.deps, r.senders());
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const again = await deliverDue(w.t.deps, r.senders());
    assert.deepEqual(again, { sent: 0, retried: 0, failed: 0, skipped: 0 });
    assert.equal(r.mails.length, 3);
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("a worker stopped between the commit and the delivery: the next one sends each mail once", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    // Nothing was sent yet: the events wait in the store (the process could stop here).
    assert.equal(r.mails.length, 0);
    // A worker turns them into deliveries and claims them, then dies before sending.
    await expandEvents(w.t.deps, r.senders());
    const claimed = await claimDue(w.t.deps.kv, w.clock.now, LEASE_MS, 10);
    assert.equal(claimed.length, 3);
    // Another process meanwhile holds nothing: the claims' leases still run.
    assert.equal((await deliverDue(w.t.deps, r.senders())).sent, 0);
    // When the leases end, the messages go out, once each.
    w.clock.now += LEASE_MS + 1;
    assert.equal((await deliverDue(w.t.deps, r.senders())).sent, 3);
    assert.equal((await deliverDue(w.t.deps, r.senders())).sent, 0);
    assert.equal(r.mails.length, 3);
    const rows = await recentDeliveries(w.t.deps.kv, 10);
    assert.deepEqual(rows.map((d) => [d.state, d.attempts]), [
      ["sent", 2],
      ["sent", 2],
      ["sent", 2],
    ]);
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("two workers at once send each mail once", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const [a, b] = await Promise.all([
      deliverDue(w.t.deps, r.senders()),
      deliverDue(w.t.deps, r.senders()),
    ]);
    assert.equal(a.sent + b.sent, 3);
    assert.equal(r.mails.length, 3);
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("a refusing receiver: permanent marks the address and stops; temporary retries later", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    r.refuse.set("ana@test.mx", 550);
    r.refuse.set("bob@test.mx", 451);
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const first = await deliverDue(w.t.deps, r.senders());
    assert.deepEqual(first, { sent: 1, retried: 1, failed: 1, skipped: 0 });
    assert.ok(await undeliverable(w.t.deps.kv, "ana@test.mx"));
    // The temporary refusal is tried again after its backoff, and goes through then.
    r.refuse.delete("bob@test.mx");
    assert.equal((await deliverDue(w.t.deps, r.senders())).sent, 0);
    w.clock.now += 61_000;
    assert.equal((await deliverDue(w.t.deps, r.senders())).sent, 1);
    assert.equal(mailsTo(r, "bob@test.mx").length, 1);
    assert.equal(mailsTo(r, "ana@test.mx").length, 0);
    const rows = await recentDeliveries(w.t.deps.kv, 10);
    const ana = rows.find((d) => d.user_id === w.tenants[0])!;
    assert.equal(ana.state, "failed");
    assert.match(ana.error ?? "", /550/);
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("the sweep: a reminder 3 days before the due date, once; the overdue notice with the fee after it", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    await deliverDue(w.t.deps, r.senders());
    const due = (await getUnitBill(
      w.t.deps.kv,
      (await recentDeliveries(w.t.deps.kv, 1))[0]
        .params.bill_id as number,
    ))!.payment_due_date!;
    const at = (days: number) => Date.parse(`${due}T18:00:00Z`) + days * 86_400_000; // noon in the business time zone
    const subjects = () => mailsTo(r, "bob@test.mx").map((m) => m.subject ?? "");
    for (const [days, expected] of [[-4, 1], [-3, 2], [-2, 2], [1, 3], [2, 3]] as const) {
      w.clock.now = at(days);
      await sweepOverdue(w.t.deps);
      await deliverDue(w.t.deps, r.senders());
      assert.equal(subjects().length, expected, `day ${days}: ${subjects()}`);
    }
    assert.match(subjects()[1], /^Reminder: your bill is due on/);
    assert.match(subjects()[2], /^Overdue: your bill for November 2026/);
    const overdue = mailsTo(r, "bob@test.mx")[2];
    assert.match(overdue.text ?? "", /late fee of \$50\.00 MXN/);
  } finally {
    await r.stop();
    w.t.close();
  }
});

Deno.test("Settings: a tenant who turns bill mails off gets none; the card shows the choice", async () => {
  const w = await billedWorld();
  const r = await receiver();
  try {
    const off = await call(w.t, "POST", "/user/settings/messages", {
      token: w.tenantTokens[1],
      form: { kind: "payment_receipt" },
    });
    assert.equal(off.status, 303);
    const html = await (await call(w.t, "GET", "/user/settings", { token: w.tenantTokens[1] }))
      .text();
    const box = (kind: string) => new RegExp(`<input[^>]*value="${kind}"[^>]*>`).exec(html)![0];
    assert.doesNotMatch(box("bill_finalized"), /checked/);
    assert.match(box("payment_receipt"), /checked/);
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    await deliverDue(w.t.deps, r.senders());
    assert.equal(mailsTo(r, "bob@test.mx").length, 0);
    assert.equal(mailsTo(r, "ana@test.mx").length, 1);
  } finally {
    await r.stop();
    w.t.close();
  }
});
