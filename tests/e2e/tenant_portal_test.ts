/**
 * The tenant's portal in headless Chromium at 360x740 against the real portal: the dashboard
 * with its chart tabs, a unit's Overview, Analytics and Insights tabs, the pricing and the
 * billing page with a report download, on metered units of a tiered zone.
 */
import assert from "node:assert/strict";
import {
  addAccount,
  apiStation,
  assertFitsAndAccessible,
  chartDrawn as drawn,
  downloadedPdf,
  innerText as text,
  lastDay,
  meterLastMonth,
  onPhone,
  pathOf,
  portalApi,
  test,
} from "./_browser.ts";
import { defaultZone } from "../../core/zone.ts";
import { createZone } from "../../db/zones.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { TIERED } from "../_billing_world.ts";

test("a tenant reads their dashboard, a unit's tabs, the pricing and downloads a bill on a phone", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const tenant = await addAccount(portal, "user", {
    language: "en",
    full_name: "Lucía Pérez Gómez",
  });
  const other = await addAccount(portal, "user", { language: "en" });
  const zone = await createZone(portal.deps.kv, {
    ...defaultZone("Tiered"),
    ...TIERED,
  }, Date.now());
  const { station, sensors } = await apiStation(await portalApi(portal, admin.user), {
    serial: "TP-01",
    name: "Residencial Tenant",
    zoneId: zone.id,
    units: ["Depto 101", "Depto 102"],
    sensors: [
      { serial: "TP0001", unit: "unit_1", tenant: tenant.user.id },
      { serial: "TP0002", unit: "unit_2", tenant: other.user.id },
    ],
  });
  // Last month: 300 kWh (bill 591.60 MXN). The last day: hourly power and counter readings.
  const month = await meterLastMonth(
    portal,
    { TP0001: [1000, 1300] },
    lastDay("TP0001", 1300, (i) => ({
      total_power: 500 + (i % 6) * 300,
      total_pf: 0.78,
      phase_a_power: 900,
      phase_b_power: 300,
      phase_c_power: 300,
    })),
  );
  await runBilling(portal.deps, zone.id, month.text);

  await onPhone(browser, portal, tenant, "tenant", async (page, dir) => {
    // 1. The dashboard.
    assert.equal(pathOf(page), "/user");
    assert.match(await text(page, "h1"), /Welcome, Lucía Pérez Gómez/);
    assert.equal(await page.$("[data-testid=tenant-empty]"), null);
    const cards = await text(page, "[data-testid=tenant-cards]");
    assert.match(cards, /Current Usage/);
    assert.match(cards, /Estimated Monthly Cost/);
    await drawn(page, "power");
    const units = await page.$$eval(
      "[data-testid=tenant-unit]",
      (els) => els.map((e) => (e as HTMLElement).innerText),
    );
    assert.equal(units.length, 1);
    assert.match(units[0], /Depto 101/);
    assert.match(units[0], /TP0001/);
    assert.match(await text(page, "[data-testid=recent-bills]"), /591\.60 MXN/);
    await assertFitsAndAccessible(page);
    await Promise.all([
      page.waitForNavigation(),
      page.click("a[href='/user?chart=consumption']"),
    ]);
    await drawn(page, "consumption");
    await Promise.all([page.waitForNavigation(), page.click("a[href='/user?chart=monthly']")]);
    await drawn(page, "monthly");

    // 2. The unit's tabs.
    await Promise.all([
      page.waitForNavigation(),
      page.click(`a[href='/user/consumption/${sensors[0]}']`),
    ]);
    assert.match(await text(page, "[data-testid=unit-overview]"), /78\.0 %/);
    await drawn(page, "unit-trend");
    await Promise.all([
      page.waitForNavigation(),
      page.click(`a[href='/user/consumption/${sensors[0]}?tab=analytics']`),
    ]);
    await drawn(page, "hourly");
    const peaks = await text(page, "main");
    assert.match(peaks, /Morning Peak\s+6:00-9:00 AM/);
    assert.match(peaks, /Off-Peak\s+11:00 PM-5:00 AM/);
    await assertFitsAndAccessible(page);
    await Promise.all([
      page.waitForNavigation(),
      page.click(`a[href='/user/consumption/${sensors[0]}?tab=insights']`),
    ]);
    const tips = await page.$$eval(
      "[data-tip]",
      (els) => els.map((e) => e.getAttribute("data-tip")),
    );
    assert.ok(tips.includes("efficiency_low"), `tips: ${tips}`);
    assert.ok(tips.includes("phase_imbalance"), `tips: ${tips}`);
    assert.match(await text(page, "[data-testid=unit-forecast]"), /Projected Cost/);
    assert.match(await text(page, "[data-testid=unit-info]"), /unit_1/);

    // 3. The pricing.
    await page.goto(`${portal.url}/user/pricing`, { waitUntil: "load" });
    assert.match(await text(page, "[data-testid=pricing-tiered]"), /Up to 150 kWh/);
    assert.match(await text(page, "[data-testid=pricing-zone]"), /Tiered/);
    assert.match(await text(page, "[data-testid=pricing-devices]"), /TP0001/);
    assert.doesNotMatch(await text(page, "main"), /TP0002/);
    await assertFitsAndAccessible(page);

    // 4. The billing page with the bill of last month and its report.
    await page.goto(`${portal.url}/user/billing?period=${month.text}`, { waitUntil: "load" });
    await drawn(page, "billing");
    assert.match(await text(page, "[data-testid=tenant-bill]"), /591\.60 MXN/);
    await page.click("[data-testid=how-it-works] summary");
    assert.match(await text(page, "[data-testid=how-it-works]"), /Total = Base tariff/);
    await assertFitsAndAccessible(page);
    await page.click("[data-testid=bill-report]");
    await downloadedPdf(dir, `monthly_report_${station}_unit_1_${month.text}.pdf`);
    // The PDF of the whole period.
    await page.click("[data-testid=period-pdf]");
    await downloadedPdf(dir, `monthly_report_${month.text}.pdf`);
  });
});
