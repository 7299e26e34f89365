/**
 * The money loop in headless Chromium at 360x740 against the real portal and the local Openpay
 * sandbox (issue 12): a tenant opens their payments, generates an SPEI reference, copies the
 * CLABE; the admin simulates the transfer from the Payments page; within seconds the bill shows
 * paid on the tenant's page, in the admin's payments, bill and station lists, with one
 * `payment_received` notice each for the tenant, the station's owner and the admin.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  addAccount,
  apiStation,
  collectConsole,
  freshPage,
  meterLastMonth,
  pathOf,
  portalApi,
  signIn,
  test,
  until,
  withOpenpaySandbox,
} from "./_browser.ts";
import { tieredZone } from "../_billing_world.ts";
import { createZone } from "../../db/zones.ts";
import { listNotifications } from "../../db/notifications.ts";
import { listUnitBills } from "../../db/bills.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { isValidClabe } from "../../services/payments/sandbox/clabe.ts";

const text = (page: Page, sel: string) => page.$eval(sel, (el) => el.textContent ?? "");

test("a tenant pays a bill by SPEI on a phone and everyone sees it paid", async ({ portal, browser }) => {
  await withOpenpaySandbox(portal, "me2emerchant0001", async () => {
    const admin = await addAccount(portal, "admin", { language: "es" });
    const owner = await addAccount(portal, "customer", { language: "es" });
    const tenant = await addAccount(portal, "user", { full_name: "Lucía Pérez Gómez" });
    const zone = await createZone(portal.deps.kv, tieredZone(), Date.now());
    const api = await portalApi(portal, admin.user);
    const { station } = await apiStation(api, {
      serial: "PY-01",
      name: "Residencial Pagos",
      zoneId: zone.id,
      units: ["Depto 101"],
      sensors: [{ serial: "PY0001", unit: "unit_1", tenant: tenant.user.id }],
    });
    const assigned = await fetch(`${portal.url}/api/devices/assign-customer`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
      body: JSON.stringify({ customer_id: owner.user.id, station_ids: [station] }),
    });
    assert.equal(assigned.status, 200);
    await assigned.body?.cancel();
    const month = await meterLastMonth(portal, { PY0001: [1000, 1300] });
    await runBilling(portal.deps, zone.id, month.text);
    const [bill] = await listUnitBills(portal.deps.kv, station);
    assert.equal(bill.payment_status, "pending");

    // The tenant, on a phone: payments → generate → the reference, copy the CLABE.
    const page = await freshPage(browser);
    const logged = collectConsole(page);
    await page.browserContext().overridePermissions(portal.url, [
      "clipboard-read",
      "clipboard-write",
      "clipboard-sanitized-write",
    ]);
    await page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
    await signIn(page, portal, tenant.email, tenant.password);
    await page.goto(`${portal.url}/user/payments`, { waitUntil: "load" });
    assert.ok(await page.$("[data-testid=test-mode]"), "test mode is said");
    assert.match(await text(page, "[data-testid=payment-row]"), /Pendiente/);
    assert.match(await text(page, "[data-testid=payment-row]"), /591\.60 MXN/);
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=open-payment]"),
    ]);
    assert.equal(pathOf(page), `/user/payment?bill=${bill.id}`);
    await page.waitForSelector("[data-island=GenerateReference] button:not([disabled])");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=generate-reference]"),
    ]);
    assert.equal(pathOf(page), `/user/payment/success?bill=${bill.id}`);
    const clabe = (await text(page, "[data-testid=spei-clabe]")).trim();
    assert.ok(isValidClabe(clabe), clabe);
    assert.match(await text(page, "[data-testid=spei-reference]"), /^\d{20}$/);
    assert.match(await text(page, "[data-testid=payment-status]"), /En espera/);
    const copy = "[data-testid=spei-clabe] + [data-island] [data-testid=copy-button]";
    await page.waitForSelector(copy);
    await page.click(copy);
    await until("the copied feedback", async () => /Copiado/.test(await text(page, copy)));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), clabe);
    const mobileWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(mobileWidth <= 360, `no sideways scroll at 360 px (${mobileWidth})`);

    // The admin simulates the transfer from the Payments page.
    const adminPage = await freshPage(browser);
    await signIn(adminPage, portal, admin.email, admin.password);
    await adminPage.goto(`${portal.url}/admin/payments`, { waitUntil: "load" });
    await Promise.all([
      adminPage.waitForNavigation({ waitUntil: "load" }),
      adminPage.click(`[data-bill="${bill.id}"] [data-testid=simulate-transfer]`),
    ]);
    assert.match(pathOf(adminPage), /^\/admin\/payments/);

    // Within seconds the tenant's page shows it paid (it polls while waiting).
    const t0 = Date.now();
    await until(
      "the bill paid on the tenant's page",
      async () => /Pagado/.test(await text(page, "[data-testid=payment-status]")),
      10_000,
    );
    const seconds = (Date.now() - t0) / 1000;
    assert.ok(seconds < 10, `paid after ${seconds} s`);
    await page.goto(`${portal.url}/user/payments`, { waitUntil: "load" });
    assert.ok(await page.$("[data-testid=payments-empty]"), "nothing left to pay");

    // The admin's lists: payments, the unit bills, the stations' payment status.
    await adminPage.goto(`${portal.url}/admin/payments`, { waitUntil: "load" });
    assert.match(await text(adminPage, `[data-bill="${bill.id}"]`), /Pagado/);
    await adminPage.goto(
      `${portal.url}/admin/units-billing?zone_id=${zone.id}&year=${month.year}&period=${month.text}`,
      { waitUntil: "load" },
    );
    assert.match(await text(adminPage, "[data-testid=unit-bills]"), /Pagad/);
    await adminPage.goto(`${portal.url}/admin/devices`, { waitUntil: "load" });
    assert.match(await adminPage.content(), /Residencial Pagos[\s\S]*Pagad/);

    for (const id of [tenant.user.id, owner.user.id, admin.user.id]) {
      const notes = (await listNotifications(portal.deps.kv, id, "all", 100))
        .filter((n) => n.type === "payment_received");
      assert.equal(notes.length, 1, `one payment_received notice for user ${id}`);
    }
    assert.deepEqual(
      logged.filter((e) => e.kind !== "requestfailed"),
      [],
      "the payment pages log no errors",
    );
  });
});
