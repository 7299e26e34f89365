/**
 * CFDI invoices through Facturapi (issue 31): the real client against the local server that
 * speaks Facturapi's API (request bodies, Bearer key, error bodies, timeouts), driven by real
 * payments (the Openpay sandbox's webhook, an admin's cash record).
 */
import assert from "node:assert/strict";
import { pay, type PaymentWorld, settled, T0 } from "./_payment_world.ts";
import { fiscal, FISCAL_A, FISCAL_OWNER, invoicing, KEY, posts } from "./_invoice_world.ts";
import { hook } from "./_payment_world.ts";
import { payBill } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import {
  cancelInvoice,
  invoiceFile,
  invoiceOfBill,
  invoicePass,
  issueGlobalInvoices,
  listInvoices,
  requestNamedInvoice,
  retryInvoice,
} from "../services/invoices/mod.ts";
import { sweepOverdue } from "../services/billing/mod.ts";
import { getUser } from "../db/users.ts";
import { Refusal } from "../services/refusal.ts";
import { facturapiClient } from "../services/invoices/facturapi_client.ts";

/** Pays bill A through the Openpay sandbox (reference, transfer, webhook). */
async function payThroughOpenpay(p: PaymentWorld): Promise<string> {
  await pay(p, p.billA);
  const charge = (await p.bill(p.billA)).openpay_charge_id!;
  assert.ok(p.sandbox.simulateTransfer(charge));
  await settled(p);
  assert.equal((await p.bill(p.billA)).payment_status, "paid");
  return charge;
}

Deno.test("a paid tiered bill: one named invoice with the exact fields and the bill's totals", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    await payThroughOpenpay(p);
    await invoicePass(p.w.t.deps);
    const bill = await p.bill(p.billA);
    const [req] = posts(f);
    assert.equal(req.authorization, `Bearer ${KEY}`);
    // 200 kWh: 150 × 1.00 + 50 × 2.00 = 250.00, base 40.00, IVA 16 % = 46.40.
    assert.deepEqual(req.body, {
      type: "I",
      customer: {
        legal_name: "ANA MARIA LOPEZ",
        tax_id: "LOPA800101AB1",
        tax_system: "612",
        address: { zip: "64000" },
        email: p.w.tenantUsers[0].email,
      },
      items: [
        {
          quantity: 200,
          product: {
            description: "Energía eléctrica 2026-11",
            product_key: "83101800",
            unit_key: "KWH",
            price: 1.25,
            tax_included: false,
            taxability: "02",
            taxes: [{ type: "IVA", rate: 0.16 }],
          },
        },
        {
          quantity: 1,
          product: {
            description: "Cargo base",
            product_key: "83101800",
            unit_key: "E48",
            price: 40,
            tax_included: false,
            taxability: "02",
            taxes: [{ type: "IVA", rate: 0.16 }],
          },
        },
      ],
      payment_form: "03",
      payment_method: "PUE",
      use: "G03",
      currency: "MXN",
      external_id: `bill-${p.billA}`,
      idempotency_key: (req.body as { idempotency_key: string }).idempotency_key,
    });
    const inv = (await invoiceOfBill(p.w.t.deps, p.billA))!;
    assert.partialDeepStrictEqual(inv, { status: "valid", total: bill.total_cost, test: true });
    assert.equal(bill.total_cost, 33640);
    const made = f.invoices.get(inv.facturapi_id!)!;
    assert.equal(made.subtotal, 290);
    assert.equal(made.total, 336.4);
    // The tenant downloads the PDF ("sin validez fiscal") and the XML; the other tenant cannot.
    const tenant = (await getUser(p.w.t.deps.kv, p.w.tenants[0]))!;
    const pdf = await invoiceFile(p.w.t.deps, tenant, inv.key, "pdf");
    assert.equal(new TextDecoder().decode(pdf.bytes.slice(0, 5)), "%PDF-");
    const xml = await invoiceFile(p.w.t.deps, tenant, inv.key, "xml");
    assert.match(new TextDecoder().decode(xml.bytes), /sin validez fiscal[\s\S]*UsoCFDI="G03"/);
    const other = (await getUser(p.w.t.deps.kv, p.w.tenants[1]))!;
    await assert.rejects(invoiceFile(p.w.t.deps, other, inv.key, "pdf"), Refusal);
  }));

Deno.test("a repeated webhook, two workers and a lost answer: still one invoice", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    const charge = await payThroughOpenpay(p);
    // Openpay delivers the same event again.
    const again = await hook(p, {
      type: "charge.succeeded",
      transaction: { id: charge, status: "completed" },
    });
    await again.body?.cancel();
    await settled(p);
    // Two processes run a pass at once; then one more after a claim whose answer was lost.
    f.delay(300);
    p.w.t.deps.config.facturapi = { ...p.w.t.deps.config.facturapi, timeoutMs: 100 };
    await Promise.all([invoicePass(p.w.t.deps), invoicePass(p.w.t.deps)]);
    const lost = (await invoiceOfBill(p.w.t.deps, p.billA))!;
    assert.partialDeepStrictEqual(lost, {
      status: "pending",
      error: "Facturapi did not answer in time",
    });
    f.delay(0);
    p.w.clock.now += 5 * 60_000;
    await invoicePass(p.w.t.deps);
    assert.equal(f.invoices.size, 1, "Facturapi made one invoice");
    const keys = new Set(
      posts(f).map((r) => (r.body as { idempotency_key: string }).idempotency_key),
    );
    assert.equal(keys.size, 1, "every attempt sent the same idempotency key");
    assert.equal((await invoiceOfBill(p.w.t.deps, p.billA))!.status, "valid");
    assert.equal((await listInvoices(p.w.t.deps)).length, 1);
  }));

Deno.test("a late fee is its own line without IVA, and the invoice totals the amount paid", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    p.w.clock.now = Date.parse("2027-01-05T15:00:00.000Z");
    await sweepOverdue(p.w.t.deps);
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    const bill = await p.bill(p.billA);
    assert.equal(bill.late_fee, 5000);
    const body = posts(f)[0].body as { items: unknown[]; payment_form: string };
    assert.equal(body.payment_form, "01", "cash");
    assert.deepEqual(body.items.at(-1), {
      quantity: 1,
      product: {
        description: "Recargo por pago tardío",
        product_key: "83101800",
        unit_key: "E48",
        price: 50,
        tax_included: false,
        taxability: "01",
        taxes: [],
      },
    });
    const inv = (await invoiceOfBill(p.w.t.deps, p.billA))!;
    assert.equal(inv.total, bill.total_cost + bill.late_fee);
  }));

Deno.test("an RFC Facturapi refuses: failed with its message; fixed, a retry creates it once", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    f.refuseTaxId(FISCAL_A.rfc);
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    const failed = (await invoiceOfBill(p.w.t.deps, p.billA))!;
    assert.equal(failed.status, "failed");
    assert.match(failed.error!, /lista de RFC inscritos/);
    await invoicePass(p.w.t.deps);
    assert.equal(posts(f).length, 1, "a failed invoice is not tried again by itself");
    f.refuseTaxId(null);
    await fiscal(p, p.w.tenants[0], { ...FISCAL_A, rfc: "LOPA800101AB2" });
    const fixed = await retryInvoice(p.w.t.deps, failed.key);
    assert.equal(fixed.status, "valid");
    await assert.rejects(retryInvoice(p.w.t.deps, failed.key), Refusal);
    assert.equal(f.invoices.size, 1);
    const made = [...f.invoices.values()][0] as { customer: { tax_id: string } };
    assert.equal(made.customer.tax_id, "LOPA800101AB2");
  }));

Deno.test("the month's global invoice: público en general, one line per bill paid without fiscal data", () =>
  invoicing(async (p, f) => {
    await payBill(p.w, p.billA);
    await payBill(p.w, p.billB);
    await invoicePass(p.w.t.deps);
    assert.equal(posts(f).length, 0, "no named invoice without fiscal data");
    const [global] = await issueGlobalInvoices(p.w.t.deps, "2026-12");
    assert.deepEqual(await issueGlobalInvoices(p.w.t.deps, "2026-12"), [], "asked again: none");
    assert.equal(posts(f).length, 1, "one global invoice for the month");
    const a = await p.bill(p.billA);
    const b = await p.bill(p.billB);
    const body = posts(f)[0].body as Record<string, unknown>;
    assert.partialDeepStrictEqual(body, {
      customer: {
        legal_name: "PUBLICO EN GENERAL",
        tax_id: "XAXX010101000",
        tax_system: "616",
        address: { zip: "64000" },
      },
      use: "S01",
      payment_form: "01",
      payment_method: "PUE",
      global: { periodicity: "month", months: "12", year: 2026 },
    });
    const items = body.items as { product: { sku: string; price: number; product_key: string } }[];
    assert.deepEqual(
      items.map((i) => [i.product.sku, i.product.price, i.product.product_key]),
      [
        [String(a.id), (a.total_cost - a.tax_cost) / 100, "01010101"],
        [String(b.id), (b.total_cost - b.tax_cost) / 100, "01010101"],
      ],
    );
    assert.partialDeepStrictEqual(global, { status: "valid", total: a.total_cost + b.total_cost });
    // A bill in an issued global invoice gets no named one.
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    const tenant = (await getUser(p.w.t.deps.kv, p.w.tenants[0]))!;
    await assert.rejects(requestNamedInvoice(p.w.t.deps, tenant, p.billA), /in_global/);
  }));

Deno.test("fiscal data added after paying: a named invoice of this month's bill, out of the global", () =>
  invoicing(async (p, f) => {
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    const tenant = (await getUser(p.w.t.deps.kv, p.w.tenants[0]))!;
    const inv = await requestNamedInvoice(p.w.t.deps, tenant, p.billA);
    assert.equal(inv.status, "valid");
    await assert.rejects(requestNamedInvoice(p.w.t.deps, tenant, p.billA), /exists/);
    assert.deepEqual(await issueGlobalInvoices(p.w.t.deps, "2026-12"), []);
    assert.equal(posts(f).length, 1);
  }));

Deno.test("the owner's invoice of the finalized station bill: commission and fee with IVA", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.owner!.id, FISCAL_OWNER);
    await invoicePass(p.w.t.deps);
    const body = posts(f)[0].body as Record<string, unknown>;
    assert.partialDeepStrictEqual(body, {
      customer: { tax_id: "ENO8910131AA", tax_system: "601", legal_name: "ENERGIA DEL NORTE" },
      use: "G03",
      payment_form: "03",
    });
    const items = body.items as { product: { description: string; product_key: string } }[];
    assert.deepEqual(items.map((i) => i.product.product_key), ["84111506", "84111506"]);
    const inv = (await listInvoices(p.w.t.deps, { kind: "owner" }))[0];
    assert.equal(inv.status, "valid");
    assert.equal(inv.user_id, p.w.owner!.id);
  }));

for (const motive of ["01", "02", "03", "04"] as const) {
  Deno.test(`cancellation with SAT motive ${motive}${motive === "01" ? " and the replacing invoice" : ""}`, () =>
    invoicing(async (p, f) => {
      await fiscal(p, p.w.tenants[0], FISCAL_A);
      await fiscal(p, p.w.tenants[1], { ...FISCAL_A, rfc: "GOMB800101AB1", legal_name: "BETO" });
      await payBill(p.w, p.billA);
      await payBill(p.w, p.billB);
      await invoicePass(p.w.t.deps);
      const a = (await invoiceOfBill(p.w.t.deps, p.billA))!;
      const b = (await invoiceOfBill(p.w.t.deps, p.billB))!;
      if (motive === "01") {
        await assert.rejects(cancelInvoice(p.w.t.deps, a.key, "01", null), /substitution/);
      }
      await assert.rejects(cancelInvoice(p.w.t.deps, a.key, "05", null), /motive/);
      const done = await cancelInvoice(p.w.t.deps, a.key, motive, motive === "01" ? b.key : null);
      const sub = motive === "01" ? b.facturapi_id : null;
      assert.partialDeepStrictEqual(done, {
        status: "canceled",
        cancellation: { motive, substitution: sub },
      });
      assert.equal((await invoiceOfBill(p.w.t.deps, p.billA))!.status, "canceled");
      assert.equal(f.invoices.get(a.facturapi_id!)!.status, "canceled");
      const deletes = f.requests.filter((r) => r.method === "DELETE").map((r) => r.path);
      assert.deepEqual(deletes, [
        `/v2/invoices/${a.facturapi_id}?motive=${motive}${sub ? `&substitution=${sub}` : ""}`,
      ]);
      await assert.rejects(cancelInvoice(p.w.t.deps, a.key, motive, null), /not_valid/);
    }));
}

Deno.test("a wrong key: Facturapi's 401 is kept as the failure, the payment stays paid", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    p.w.t.deps.config.facturapi = { ...p.w.t.deps.config.facturapi, key: "sk_test_wrong" };
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    assert.equal(posts(f)[0].authorization, "Bearer sk_test_wrong");
    assert.partialDeepStrictEqual((await invoiceOfBill(p.w.t.deps, p.billA))!, {
      status: "failed",
      error: "Authentication failed: invalid API key",
    });
    assert.equal((await p.bill(p.billA)).payment_status, "paid");
  }));

Deno.test({
  name: "live: Facturapi answers an invoice of público en general (FACTURAPI_KEY set)",
  ignore: !Deno.env.get("FACTURAPI_KEY"),
  fn: async () => {
    const client = facturapiClient({
      key: Deno.env.get("FACTURAPI_KEY")!,
      url: Deno.env.get("FACTURAPI_URL") ?? "https://www.facturapi.io/v2",
    });
    const inv = await client.createInvoice({
      type: "I",
      customer: {
        legal_name: "PUBLICO EN GENERAL",
        tax_id: "XAXX010101000",
        tax_system: "616",
        address: { zip: Deno.env.get("FACTURAPI_ZIP") ?? "64000" },
      },
      items: [{
        quantity: 1,
        product: {
          description: "Venta",
          product_key: "01010101",
          unit_key: "ACT",
          price: 1,
          tax_included: false,
          taxes: [{ type: "IVA", rate: 0.16 }],
        },
      }],
      payment_form: "03",
      payment_method: "PUE",
      use: "S01",
      global: { periodicity: "month", months: new Date(T0).toISOString().slice(5, 7), year: 2026 },
    });
    assert.equal(inv.status, "valid");
    assert.equal((await client.cancelInvoice(inv.id, "02")).id, inv.id);
  },
});

Deno.test("/admin/invoices lists a failure with Facturapi's message; retry; the tenant downloads the PDF", () =>
  invoicing(async (p, f) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    f.refuseTaxId(FISCAL_A.rfc);
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    const list = await call(p.w.t, "GET", "/admin/invoices?status=failed", { token: p.w.admin });
    assert.match(await list.text(), /bill:\d+[\s\S]*lista de RFC inscritos/);
    f.refuseTaxId(null);
    const retried = await call(p.w.t, "POST", "/admin/invoices/retry", {
      token: p.w.admin,
      form: { key: `bill:${p.billA}` },
    });
    assert.equal(retried.status, 303);
    const token = p.w.tenantTokens[0];
    const key = encodeURIComponent(`bill:${p.billA}`);
    const pdf = await call(p.w.t, "GET", `/user/invoices/file?key=${key}&format=pdf`, { token });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    assert.equal(new TextDecoder().decode((await pdf.bytes()).slice(0, 5)), "%PDF-");
    const other = await call(p.w.t, "GET", `/user/invoices/file?key=${key}&format=pdf`, {
      token: p.w.tenantTokens[1],
    });
    assert.equal(other.status, 404);
    await other.body?.cancel();
  }));
