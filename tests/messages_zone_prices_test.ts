/**
 * A zone's new prices are mailed to its tenants (issue 28), over real SMTP: once per price
 * change, in each tenant's language, naming the month they apply from and the old and new
 * prices; a change of the owner's terms alone tells the tenants nothing.
 */
import assert from "node:assert/strict";
import { billingWorld, tieredZone } from "./_billing_world.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { call } from "./_helpers.ts";
import { deliverDue } from "../services/messages/mod.ts";

Deno.test("a zone's new prices reach each of its tenants once, in their language; terms alone do not", async () => {
  const w = await billingWorld({
    now: Date.UTC(2026, 3, 10, 18),
    tenants: [{ language: "es" }, { language: "de" }],
  });
  const r = await receiver();
  try {
    const put = async (json: Record<string, unknown>) => {
      const res = await call(w.t, "PUT", `/api/zones/${w.zoneId}`, { token: w.admin, json });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
    };
    const [es, de] = w.tenantUsers.map((u) => u.email);
    await put(tieredZone({ price_low: 1.25 }, { effective_from: "2026-06" }));
    await deliverDue(w.t.deps, r.senders());
    await deliverDue(w.t.deps, r.senders());
    const [mail] = mailsTo(r, es);
    assert.equal(mailsTo(r, es).length, 1);
    assert.match(mail.subject ?? "", /^Nuevos precios de .+ a partir de junio 2026/);
    assert.match(mail.text ?? "", /: \$1\.00 MXN → \$1\.25 MXN/);
    assert.match(mailsTo(r, de)[0].text ?? "", /ab Juni 2026: .*1,00 \$ MXN → 1,25 \$ MXN/);
    // The owner's commission changes in July: the tenants hear nothing of it.
    await put(
      tieredZone({ price_low: 1.25 }, { effective_from: "2026-07", customer_commission: 12 }),
    );
    await deliverDue(w.t.deps, r.senders());
    assert.equal(mailsTo(r, es).length, 1);
    assert.equal(mailsTo(r, de).length, 1);
  } finally {
    await r.stop();
    w.t.close();
  }
});
