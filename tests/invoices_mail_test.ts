/**
 * The invoice's mail over real SMTP (issue 31): when Facturapi makes a named or owner invoice,
 * its receiver gets one mail with the invoice's PDF and XML attached, however often the worker
 * runs; a person who turned the kind off in Settings gets none.
 */
import assert from "node:assert/strict";
import { payBill } from "./_billing_world.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { fiscal, FISCAL_A, FISCAL_OWNER, invoicing } from "./_invoice_world.ts";
import { invoiceOfBill, invoicePass } from "../services/invoices/mod.ts";
import { deliverDue, saveMessagePrefs } from "../services/messages/mod.ts";
import { getUser } from "../db/users.ts";

const CFDI_SUBJECT = /^Su factura electrónica \(CFDI\)/;

Deno.test("an issued invoice: one mail to the tenant and one to the owner, each with its PDF and XML", () =>
  invoicing(async (p) => {
    const r = await receiver();
    try {
      const deps = p.w.t.deps;
      await fiscal(p, p.w.tenants[0], FISCAL_A);
      await fiscal(p, p.w.owner!.id, FISCAL_OWNER);
      await payBill(p.w, p.billA);
      await invoicePass(deps);
      await deliverDue(deps, r.senders());
      await invoicePass(deps);
      await deliverDue(deps, r.senders());
      const inv = (await invoiceOfBill(deps, p.billA))!;
      const ana = mailsTo(r, p.w.tenantUsers[0].email)
        .filter((m) => CFDI_SUBJECT.test(m.subject ?? ""));
      assert.equal(ana.length, 1, "one invoice mail");
      const [mail] = ana;
      assert.match(mail.subject!, /Depto 1 .*noviembre 2026/);
      assert.ok(mail.text?.includes(inv.uuid!), "the UUID");
      assert.match(mail.text ?? "", /sin validez fiscal/);
      const files = mail.attachments.map((a) => [a.filename, a.contentType]);
      assert.deepEqual(files, [
        [`cfdi-bill-${p.billA}.pdf`, "application/pdf"],
        [`cfdi-bill-${p.billA}.xml`, "application/xml"],
      ]);
      assert.equal(new TextDecoder().decode(mail.attachments[0].content.subarray(0, 5)), "%PDF-");
      assert.ok(new TextDecoder().decode(mail.attachments[1].content).includes(inv.uuid!));
      const owner = (await getUser(deps.kv, p.w.owner!.id))!;
      const ownerMails = mailsTo(r, owner.email).filter((m) => /CFDI/.test(m.subject ?? ""));
      assert.equal(ownerMails.length, 1);
      assert.equal(ownerMails[0].attachments.length, 2);
    } finally {
      await r.stop();
    }
  }));

Deno.test("a tenant who turned the invoice mail off in Settings gets none", () =>
  invoicing(async (p) => {
    const r = await receiver();
    try {
      const deps = p.w.t.deps;
      await saveMessagePrefs(deps, p.w.tenants[0], "user", new Set(["payment_receipt"]), false);
      await fiscal(p, p.w.tenants[0], FISCAL_A);
      await payBill(p.w, p.billA);
      await invoicePass(deps);
      await deliverDue(deps, r.senders());
      assert.equal((await invoiceOfBill(deps, p.billA))!.status, "valid");
      const mails = mailsTo(r, p.w.tenantUsers[0].email);
      assert.ok(mails.some((m) => /^Pago recibido/.test(m.subject ?? "")), "the receipt still");
      assert.ok(!mails.some((m) => CFDI_SUBJECT.test(m.subject ?? "")), "no invoice mail");
    } finally {
      await r.stop();
    }
  }));
