/**
 * Payment mails over real SMTP (issue 28): the SPEI instructions when a reference is made and
 * the receipt when Openpay's webhook pays the bill, each once however often the webhook repeats.
 */
import assert from "node:assert/strict";
import { hook, pay, settled, world } from "./_payment_world.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { deliverDue } from "../services/messages/mod.ts";

Deno.test("SPEI instructions, then one receipt after the webhook, however often it repeats", () =>
  world(async (p) => {
    const r = await receiver();
    try {
      const deps = p.w.t.deps;
      const ana = p.w.tenantUsers[0].email;
      await deliverDue(deps, r.senders()); // the November bills' mails
      const before = mailsTo(r, ana).length;
      await pay(p, p.billA);
      await deliverDue(deps, r.senders());
      const bill = await p.bill(p.billA);
      const [spei] = mailsTo(r, ana).slice(before);
      assert.match(spei.subject ?? "", /^Cómo pagar su factura de noviembre 2026 por SPEI/);
      assert.ok(spei.text?.includes(bill.spei_clabe!), "the CLABE");
      assert.ok(spei.text?.includes(bill.spei_reference!), "the reference");
      const charge = bill.openpay_charge_id!;
      assert.ok(p.sandbox.simulateTransfer(charge));
      await settled(p);
      // Openpay repeats its event: nothing more is paid or sent.
      const tx = p.sandbox.charges.get(charge)!;
      await (await hook(p, { type: "charge.succeeded", transaction: tx })).body?.cancel();
      await settled(p);
      await deliverDue(deps, r.senders());
      await deliverDue(deps, r.senders());
      const receipts = mailsTo(r, ana).filter((m) => /^Pago recibido/.test(m.subject ?? ""));
      assert.equal(receipts.length, 1);
      assert.match(receipts[0].text ?? "", /Recibimos su pago de \$\d/);
      assert.equal((await p.bill(p.billA)).payment_status, "paid");
    } finally {
      await r.stop();
    }
  }));
