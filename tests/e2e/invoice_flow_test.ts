/**
 * A legal invoice in headless Chromium at 360x740 against the real portal, the local Openpay
 * sandbox and the local Facturapi sandbox (issue 31): a tenant adds their fiscal data in
 * Settings, pays last month's bill by SPEI, and once the transfer arrives downloads the
 * invoice's PDF from their billing page (which fits the phone and passes axe-core).
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  addAccount,
  apiStation,
  assertFitsAndAccessible,
  downloadedPdf,
  meterLastMonth,
  onPhone,
  pathOf,
  portalApi,
  test,
  until,
  withOpenpaySandbox,
} from "./_browser.ts";
import { tieredZone } from "../_billing_world.ts";
import { createZone } from "../../db/zones.ts";
import { getUnitBill, listUnitBills } from "../../db/bills.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { startInvoiceWorker } from "../../services/invoices/mod.ts";
import { startFacturapiSandbox } from "../../services/invoices/sandbox/mod.ts";

const text = (page: Page, sel: string) => page.$eval(sel, (el) => el.textContent ?? "");

/** Submits the form of `button` and waits for the page it leads to. */
async function submit(page: Page, button: string) {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(button)]);
}

test("a tenant adds fiscal data, pays by SPEI on a phone and downloads the invoice PDF", async ({ portal, browser }) => {
  const facturapi = await startFacturapiSandbox({ key: "sk_test_e2e" });
  portal.deps.config.facturapi = {
    key: facturapi.key,
    url: facturapi.url,
    issuerZip: "64000",
    timeoutMs: 5000,
  };
  const worker = startInvoiceWorker(portal.deps, 200);
  try {
    await withOpenpaySandbox(portal, "me2einvoice00001", async (openpay) => {
      const admin = await addAccount(portal, "admin", { language: "es" });
      const tenant = await addAccount(portal, "user", { language: "es" });
      const zone = await createZone(portal.deps.kv, tieredZone(), Date.now());
      const { station } = await apiStation(await portalApi(portal, admin.user), {
        serial: "FX-01",
        name: "Residencial Facturas",
        zoneId: zone.id,
        units: ["Depto 7"],
        sensors: [{ serial: "FX0001", unit: "unit_1", tenant: tenant.user.id }],
      });
      const month = await meterLastMonth(portal, { FX0001: [1000, 1200] });
      await runBilling(portal.deps, zone.id, month.text);
      const [bill] = await listUnitBills(portal.deps.kv, station);

      await onPhone(browser, portal, tenant, "invoice", async (page, dir) => {
        // Fiscal data in Settings.
        await page.goto(`${portal.url}/user/settings#fiscal`, { waitUntil: "load" });
        const card = "[data-testid=fiscal-data]";
        await page.type(`${card} #rfc`, "LOPA800101AB1");
        await page.type(`${card} #legal_name`, "LUCIA LOPEZ PEREZ");
        await page.select(`${card} #tax_system`, "612");
        await page.type(`${card} #zip`, "64000");
        await submit(page, `${card} form[action$='/fiscal'] button[type=submit]`);
        assert.match(pathOf(page), /fiscal_saved=1/);

        // The SPEI reference, then the transfer arrives (Openpay's webhook).
        await page.goto(`${portal.url}/user/payment?bill=${bill.id}`, { waitUntil: "load" });
        await page.waitForSelector("[data-island=GenerateReference] button:not([disabled])");
        await submit(page, "[data-testid=generate-reference]");
        const charge = (await getUnitBill(portal.deps.kv, bill.id))!.openpay_charge_id!;
        assert.ok(openpay.simulateTransfer(charge));
        await until(
          "the bill paid",
          async () => (await getUnitBill(portal.deps.kv, bill.id))!.payment_status === "paid",
          10_000,
        );

        // The billing page shows the invoice valid, with its PDF.
        const billing = `${portal.url}/user/billing?period=${month.text}`;
        await until("the invoice on the billing page", async () => {
          await page.goto(billing, { waitUntil: "load" });
          return (await page.$("[data-invoice=valid] [data-testid=invoice-pdf]")) !== null;
        }, 10_000);
        assert.match(await text(page, "[data-testid=bill-invoice]"), /CFDI · Vigente/);
        await assertFitsAndAccessible(page);
        const href = await page.$eval(
          "[data-testid=invoice-pdf]",
          (a) => (a as HTMLAnchorElement).href,
        );
        const answer = await page.evaluate(async (url) => {
          const r = await fetch(url);
          const head = new Uint8Array(await r.arrayBuffer()).slice(0, 5);
          return { status: r.status, type: r.headers.get("content-type"), head: [...head] };
        }, href);
        assert.deepEqual(answer, {
          status: 200,
          type: "application/pdf",
          head: [...new TextEncoder().encode("%PDF-")],
        });
        await page.click("[data-testid=invoice-pdf]");
        await downloadedPdf(dir, `cfdi-bill-${bill.id}.pdf`);
      });
      assert.equal(facturapi.invoices.size, 1, "one invoice");
    });
  } finally {
    await worker.stop();
    await facturapi.stop();
  }
});
