/**
 * Invoices of a USD zone (issue 31): CFDI 4.0 needs the exchange rate (TipoCambio) for a
 * currency other than MXN. Without `FACTURAPI_EXCHANGE_RATES` the invoice is failed before
 * Facturapi is called, with the reason the admin reads (not the tenant's fiscal data); with it,
 * a retry sends Facturapi's `exchange` and the invoice is made once.
 */
import assert from "node:assert/strict";
import { billingWorld, meter, payBill } from "./_billing_world.ts";
import { T0 } from "./_payment_world.ts";
import { call } from "./_helpers.ts";
import { fiscal, FISCAL_A, KEY, posts } from "./_invoice_world.ts";
import { startFacturapiSandbox } from "../services/invoices/sandbox/mod.ts";
import { invoiceOfBill, invoicePass, retryInvoice } from "../services/invoices/mod.ts";
import { runBilling } from "../services/billing/mod.ts";
import { listUnitBills } from "../db/bills.ts";
import { ConfigError, loadConfig } from "../services/platform/config.ts";

Deno.test("a USD bill: failed without an exchange rate, issued with FACTURAPI_EXCHANGE_RATES's", async () => {
  const f = await startFacturapiSandbox({ key: KEY });
  const w = await billingWorld({
    now: T0,
    zone: { currency: "USD" },
    tenants: [{ language: "es" }],
  });
  try {
    const deps = w.t.deps;
    deps.config.facturapi = { key: KEY, url: f.url, issuerZip: "64000", timeoutMs: 2000 };
    await meter(w.t, "SIM-A", "2026-11", 200);
    await runBilling(deps, w.zoneId, "2026-11");
    const [bill] = await listUnitBills(deps.kv, w.stationId, "2026-11");
    assert.equal(bill.currency, "USD");
    await fiscal({ w }, w.tenants[0], FISCAL_A);
    await payBill(w, bill.id);
    await invoicePass(deps);
    const failed = (await invoiceOfBill(deps, bill.id))!;
    assert.equal(failed.status, "failed");
    assert.match(failed.error!, /^no exchange rate for USD: .*FACTURAPI_EXCHANGE_RATES/);
    assert.equal(posts(f).length, 0, "Facturapi is not asked for what it must refuse");
    // The tenant reads it failed, without being told to fix their fiscal data.
    const page = await call(w.t, "GET", "/user/billing?period=2026-11", {
      token: w.tenantTokens[0],
    });
    const html = await page.text();
    assert.match(html, /data-invoice="failed"/);
    assert.doesNotMatch(html, /invoice-fiscal-link/);

    deps.config.facturapi = { ...deps.config.facturapi, exchange: { USD: 17.25 } };
    const fixed = await retryInvoice(deps, failed.key);
    assert.equal(fixed.status, "valid");
    const [sent] = posts(f);
    assert.partialDeepStrictEqual(sent.body, { currency: "USD", exchange: 17.25 });
    assert.equal(fixed.total, bill.total_cost, "the total in the bill's currency");
    assert.equal(f.invoices.size, 1);
  } finally {
    await w.t.close();
    await f.stop();
  }
});

Deno.test("FACTURAPI_EXCHANGE_RATES: rates by currency; a malformed one refuses the start", () => {
  assert.deepEqual(
    loadConfig({ FACTURAPI_EXCHANGE_RATES: "USD=17.25, EUR=18.9" }).facturapi.exchange,
    { USD: 17.25, EUR: 18.9 },
  );
  assert.deepEqual(loadConfig({}).facturapi.exchange, {});
  for (const bad of ["USD=abc", "usd=17", "USD=0", "USD17"]) {
    assert.throws(
      () => loadConfig({ FACTURAPI_EXCHANGE_RATES: bad }),
      (e: unknown) =>
        e instanceof ConfigError && /FACTURAPI_EXCHANGE_RATES must read/.test(e.message),
      bad,
    );
  }
});
