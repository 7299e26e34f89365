/**
 * The owners' monthly payment summary over real SMTP (issue 28): what the tenants of their
 * stations were billed, paid and still owe for the latest period, once per owner and month.
 */
import assert from "node:assert/strict";
import { billingWorld, meter, payBill } from "./_billing_world.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { runBilling } from "../services/billing/mod.ts";
import { listUnitBills } from "../db/bills.ts";
import { deliverDue } from "../services/messages/mod.ts";
import { queueOwnerSummaries } from "../services/messages/owner_summary.ts";

Deno.test("an owner's payment summary: billed, paid and pending of the latest period, once a month", async () => {
  const w = await billingWorld({
    now: Date.parse("2026-12-03T15:00:00.000Z"),
    owner: { email: "owner@test.mx", language: "en" },
  });
  const r = await receiver();
  try {
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 300);
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const bills = await listUnitBills(w.t.deps.kv, w.stationId, "2026-11");
    const a = bills.find((b) => b.unit_id === "unit_1")!;
    const b = bills.find((b) => b.unit_id === "unit_2")!;
    await payBill(w, a.id);
    const money = (c: number) => `$${(c / 100).toFixed(2)} MXN`;
    assert.equal(await queueOwnerSummaries(w.t.deps), 1);
    assert.equal(await queueOwnerSummaries(w.t.deps), 0, "once a month");
    await deliverDue(w.t.deps, r.senders());
    const summaries = mailsTo(r, "owner@test.mx").filter((m) => /payments/.test(m.subject ?? ""));
    assert.equal(summaries.length, 1);
    assert.equal(summaries[0].subject, "Your tenants' payments: November 2026");
    const text = summaries[0].text ?? "";
    assert.ok(text.includes(`billed ${money(a.total_cost + b.total_cost)}`), text);
    assert.ok(text.includes(`have paid ${money(a.total_cost)}`), text);
    assert.ok(text.includes(`owe ${money(b.total_cost)}`), text);
  } finally {
    await r.stop();
    w.t.close();
  }
});
