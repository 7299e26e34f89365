/**
 * A reference whose charge the processor no longer knows (a sandbox that lost its state, a
 * charge gone on Openpay's side), against the real client code and the local sandbox: the
 * reconciliation sweep and the admin's "simulate transfer" mark it, the admin's review lists it
 * with its reason, the tenant's pages say the reference is no longer valid and generate a new
 * one, and the bill may be deleted. A 404 that is not about the charge (wrong merchant) or
 * Openpay failing marks nothing. Also the receipt ("ficha de pago") in test mode: the portal's
 * own address (`PUBLIC_URL`'s or the request's, never the sandbox's loopback) and a real PDF; and
 * the form's transfer instructions for every payer's bank.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import { failing, pay, type PaymentWorld, world } from "./_payment_world.ts";
import { getCharge, listFlags } from "../db/payments.ts";
import { deleteBlocker } from "../core/payment.ts";
import { reconcileCharges } from "../services/payments/mod.ts";
import { loadConfig } from "../services/platform/config.ts";

/** Bill A gets a reference, then the sandbox forgets every charge (as after a restart). */
async function forgottenReference(p: PaymentWorld): Promise<string> {
  assert.equal((await pay(p, p.billA)).status, 200);
  const charge = (await p.bill(p.billA)).openpay_charge_id!;
  p.sandbox.charges.clear();
  return charge;
}

const tenantPage = async (p: PaymentWorld, path: string) =>
  await (await call(p.w.t, "GET", path, { token: p.w.tenantTokens[0] })).text();

Deno.test("unknown charge: the sweep sends it to the admin's review and the tenant gets a new reference", () =>
  world(async (p) => {
    const old = await forgottenReference(p);
    const swept = await reconcileCharges(p.w.t.deps);
    assert.equal(swept.unknown, 1);

    const bill = await p.bill(p.billA);
    assert.equal(bill.payment_status, "reference_expired");
    assert.equal(bill.payment_history.at(-1)?.cause, "reference_unknown");
    assert.equal(deleteBlocker(bill, p.w.t.deps.now()), null, "the bill may be deleted");
    assert.equal((await getCharge(p.w.t.deps.kv, old))?.status, "unknown");
    const flags = await listFlags(p.w.t.deps.kv);
    assert.deepEqual(
      flags.map((f) => [f.reason, f.transaction_id, f.bill_id]),
      [["charge_not_found", old, p.billA]],
    );
    // Once: a second sweep neither asks again nor flags again.
    assert.equal((await reconcileCharges(p.w.t.deps)).checked, 0);
    assert.equal((await listFlags(p.w.t.deps.kv)).length, 1);

    const review = await (await call(p.w.t, "GET", "/admin/payments", { token: p.w.admin }))
      .text();
    assert.match(
      review,
      /Referencia que el procesador ya no reconoce|Reference the processor no longer knows/,
    );
    assert.ok(review.includes(old));

    const api = await (await call(p.w.t, "GET", `/api/tenant-payments/${p.billA}`, {
      token: p.w.tenantTokens[0],
    })).json();
    assert.equal(api.status, "reference_expired");
    assert.equal(api.reference_unknown, true);
    for (const path of ["/user/payments", `/user/payment?bill=${p.billA}`]) {
      const html = await tenantPage(p, path);
      assert.match(
        html,
        /data-testid="reference-unknown"[^>]*>Su referencia SPEI anterior ya no es válida/,
      );
      assert.ok(!html.includes(bill.spei_clabe!), `${path} shows the old CLABE`);
    }
    assert.match(await tenantPage(p, "/user/payments"), /Generar nueva referencia/);

    const again = await (await pay(p, p.billA)).json();
    assert.equal(again.status, "awaiting_spei_transfer");
    assert.equal(again.reference_unknown, false);
    assert.notEqual(again.openpay_charge_id, old);
    assert.equal(p.sandbox.charges.size, 1);
  }));

Deno.test("unknown charge: the admin's simulated transfer marks it and says so", () =>
  world(async (p) => {
    const old = await forgottenReference(p);
    const res = await call(p.w.t, "POST", "/admin/payments/simulate", {
      token: p.w.admin,
      form: { bill: String(p.billA) },
    });
    assert.equal(res.status, 200); // the payments page again, with the message
    assert.match(
      await res.text(),
      /ya no reconoce esta referencia SPEI|no longer knows this SPEI reference/,
    );
    assert.equal((await p.bill(p.billA)).payment_status, "reference_expired");
    assert.equal((await getCharge(p.w.t.deps.kv, old))?.status, "unknown");
    assert.equal((await listFlags(p.w.t.deps.kv))[0].reason, "charge_not_found");
  }));

Deno.test("unknown charge: a 404 for a wrong merchant or Openpay failing marks nothing", () =>
  world(async (p) => {
    assert.equal((await pay(p, p.billA)).status, 200);
    const sandboxUrl = p.sandbox.url;
    p.pointAt(sandboxUrl, { merchantId: "mwrongmerchant00" }); // every call answers 404
    assert.equal((await reconcileCharges(p.w.t.deps)).unknown, 0);
    const down = failing(() => new Response("down", { status: 500 }));
    p.pointAt(down.url);
    assert.equal((await reconcileCharges(p.w.t.deps)).unknown, 0);
    await down.stop();
    const bill = await p.bill(p.billA);
    assert.equal(bill.payment_status, "awaiting_spei_transfer");
    assert.deepEqual(await listFlags(p.w.t.deps.kv), []);
  }));

Deno.test("receipt: in test mode the portal's own address, PUBLIC_URL's or the request's, and a PDF", () =>
  world(async (p) => {
    const body = await (await pay(p, p.billA)).json();
    const path = `/user/payment/receipt?bill=${p.billA}`;
    assert.equal(body.spei_details.pdf_receipt_url, `http://localhost${path}`);
    const other = await (await call(p.w.t, "GET", `/api/tenant-payments/${p.billA}`, {
      token: p.w.tenantTokens[0],
      headers: { host: "192.168.1.20:8000" },
    })).json();
    assert.equal(other.pdf_receipt_url, `http://192.168.1.20:8000${path}`);
    p.w.t.deps.config.publicUrl = loadConfig({ PUBLIC_URL: "https://portal.example" }).publicUrl;
    const pub = await (await call(p.w.t, "GET", `/api/tenant-payments/${p.billA}`, {
      token: p.w.tenantTokens[0],
    })).json();
    assert.equal(pub.pdf_receipt_url, `https://portal.example${path}`);
    const form = await tenantPage(p, `/user/payment?bill=${p.billA}`);
    assert.ok(form.includes(`href="/user/payment/receipt?bill=${p.billA}"`));
    assert.ok(!form.includes("127.0.0.1"));

    const pdf = await call(p.w.t, "GET", path, { token: p.w.tenantTokens[0] });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
    // Only the bill's tenant, only with a live reference.
    const theirs = await call(p.w.t, "GET", path, { token: p.w.tenantTokens[1] });
    assert.equal(theirs.status, 404);
    await theirs.body?.cancel();
    const none = await call(p.w.t, "GET", `/user/payment/receipt?bill=${p.billB}`, {
      token: p.w.tenantTokens[1],
    });
    assert.equal(none.status, 404);
    await none.body?.cancel();

    // With Openpay's own API the receipt is its dashboard's.
    p.pointAt("https://sandbox-api.openpay.mx");
    const real = await (await call(p.w.t, "GET", `/api/tenant-payments/${p.billA}`, {
      token: p.w.tenantTokens[0],
    })).json();
    assert.match(real.pdf_receipt_url, /^https:\/\/sandbox-dashboard\.openpay\.mx\/spei-pdf\//);
  }));

Deno.test("payment form: both transfer instructions, the other banks' 4 steps then BBVA's 5", () =>
  world(async (p) => {
    assert.equal((await pay(p, p.billA)).status, 200);
    const bill = await p.bill(p.billA);
    const html = await tenantPage(p, `/user/payment?bill=${p.billA}`);
    const others = html.indexOf("Desde otros bancos");
    const bbva = html.indexOf("Desde BBVA");
    assert.ok(others > 0 && bbva > others, "both groups, other banks first");
    for (
      const step of [
        "En la app o banca en línea de su banco, abra Transferencias SPEI (transferencias a otros bancos).",
        `Capture la CLABE ${bill.spei_clabe}; el banco destino es BBVA Bancomer.`,
        "Ingrese a la app BBVA o a la banca en línea de BBVA.",
        "Vaya a Transferir y elija &quot;A otra cuenta&quot;.",
        `Capture la CLABE ${bill.spei_clabe} como cuenta destino.`,
        "Confirme la transferencia y guarde su comprobante.",
      ]
    ) assert.ok(html.includes(step), step);
    const li = (group: string) => {
      const from = html.indexOf(`data-testid="instructions-${group}"`);
      return html.slice(from, html.indexOf("</ol>", from)).match(/<li>/g)?.length;
    };
    assert.equal(li("other_banks"), 4);
    assert.equal(li("named_bank"), 5);
  }));
