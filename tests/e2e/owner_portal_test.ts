/**
 * The owner's portal in headless Chromium at 360x740 against the real portal: the dashboard with
 * its chart modes and installations, an installation with its units, a past month's billing
 * summary and the invoice download, and a unit with live phases and its disconnections.
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
import { localParts, monthBounds } from "../../core/local_time.ts";
import { monthlyPeriod } from "../../core/periods.ts";
import { defaultZone } from "../../core/zone.ts";
import { createZone } from "../../db/zones.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { createStatusService } from "../../services/devices/mod.ts";
import { pdfText } from "../_pdf_text.ts";

const H = 3_600_000;

test("an owner reads their dashboard, an installation with its invoice and a unit on a phone", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const owner = await addAccount(portal, "customer", {
    language: "en",
    full_name: "Carmen Ortega Ruiz",
  });
  const tenant = await addAccount(portal, "user", { full_name: "Luis Hernández" });
  const zone = await createZone(portal.deps.kv, {
    ...defaultZone("Flat"),
    price_low: 2,
    base_tariff: 40,
    tax_percentage: 16,
    customer_commission: 10,
    customer_fee: 25,
    customer_tax: 16,
  }, Date.now());
  const api = await portalApi(portal, admin.user);
  const { station, sensors } = await apiStation(api, {
    serial: "OW-01",
    name: "Residencial Las Palmas",
    zoneId: zone.id,
    units: ["Depto 101", "Depto 102"],
    sensors: [
      { serial: "OW0001", unit: "unit_1", tenant: tenant.user.id },
      { serial: "OW0002", unit: "unit_2" },
    ],
  });
  const assigned = await fetch(`${portal.url}/api/devices/assign-customer`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
    body: JSON.stringify({ customer_id: owner.user.id, station_ids: [station] }),
  });
  assert.equal(assigned.status, 200, await assigned.text());

  // Last month: 100 kWh on each meter, billed and finalized. The last day: live readings.
  const off = portal.deps.config.utcOffsetMinutes;
  const today = localParts(Date.now(), off);
  const now = Date.now();
  const live = () => ({
    total_power: 1200,
    total_pf: 0.9,
    phase_a_power: 600,
    phase_a_voltage: 127.5,
    phase_a_current: 4.7,
    phase_b_power: 400,
    phase_c_power: 200,
  });
  const last = await meterLastMonth(
    portal,
    { OW0001: [1000, 1100], OW0002: [1000, 1100] },
    [...lastDay("OW0001", 1100, live), ...lastDay("OW0002", 1100, live)],
  );
  const run = await runBilling(portal.deps, zone.id, last.text);
  assert.equal(run.bills_created, 2);
  // Six short outages of the second meter this month.
  const status = createStatusService(portal.deps);
  const start = Math.max(now - 20 * H, monthBounds(today.year, today.month, off).from);
  await status.online("OW0002", start);
  for (let i = 0; i < 6; i++) {
    await status.offline("OW0002", start + i * 2 * H + 10 * 60_000, "will");
    await status.online("OW0002", start + i * 2 * H + 40 * 60_000);
  }
  await status.close();

  await onPhone(browser, portal, owner, "owner", async (page, dir) => {
    // 1. The dashboard: tiles, the three chart modes, the installation, the overview.
    assert.equal(pathOf(page), "/customer");
    assert.match(await text(page, "h1"), /Welcome, Carmen Ortega Ruiz/);
    const tiles = await text(page, "[data-testid=owner-tiles]");
    assert.match(tiles, /Current Power\s+\d+\.\d{2} kW/);
    assert.match(tiles, /Monthly Yield\s+\d+\.\d{3} MWh/);
    await drawn(page, "power");
    const rows = await text(page, "[data-testid=owner-installations]");
    assert.match(rows, /Residencial Las Palmas/);
    assert.match(rows, /OW-01/);
    assert.match(rows, /Monterrey/);
    assert.match(await text(page, "[data-testid=owner-energy]"), /Total\s+\d+\.\d{3} MWh/);
    await assertFitsAndAccessible(page);
    await Promise.all([page.waitForNavigation(), page.click("a[href='/customer?chart=energy']")]);
    await drawn(page, "energy");
    await Promise.all([page.waitForNavigation(), page.click("a[href='/customer?chart=trend']")]);
    await drawn(page, "trend");

    // 2. The installation: cards, units with the phase split, last month's bill, the invoice.
    await Promise.all([
      page.waitForNavigation(),
      page.click(`a[href='/customer/installations/${station}']`),
    ]);
    assert.match(await text(page, "h1"), /Residencial Las Palmas/);
    assert.match(await text(page, "[data-testid=installation-cards]"), /Units\s+2/);
    const units = await page.$$eval(
      "[data-testid=owner-unit]",
      (els) => els.map((e) => (e as HTMLElement).innerText),
    );
    assert.equal(units.length, 2);
    assert.match(units[0], /Depto 101[\s\S]*Luis Hernández/);
    assert.match(units[1], /No tenant/);
    assert.match(await text(page, "[data-testid=billing-summary]"), /No bill for this month yet/);
    await assertFitsAndAccessible(page);
    await page.select("[data-testid=month-select]", last.text);
    await Promise.all([page.waitForNavigation(), page.click(".month-form button")]);
    const summary = await text(page, "[data-testid=billing-summary]");
    // 200 kWh at 2.00: commission 10 % of 400 = 40, fees 2 × 25, tax 16 % of 90 = 14.40.
    assert.match(summary, /Commission\s+40\.00 MXN/);
    assert.match(summary, /Tax\s+14\.40 MXN/);
    assert.match(summary, /Total\s+104\.40 MXN/);
    for (
      const u of await page.$$eval(
        "[data-testid=unit-kwh]",
        (els) => els.map((e) => (e as HTMLElement).innerText),
      )
    ) assert.equal(u, "100.00 kWh");
    await page.click("[data-testid=invoice-open]");
    await assertFitsAndAccessible(page);
    await page.click("[data-testid=invoice-form] input[value=en]");
    await page.click("[data-testid=invoice-form] button[type=submit]");
    const pdf = await downloadedPdf(dir, `invoice_Residencial_Las_Palmas_${last.text}_en.pdf`);
    const invoice = (await pdfText(pdf)).lines.join("\n");
    for (const amount of ["$40.00 MXN", "$50.00 MXN", "$14.40 MXN", "$104.40 MXN"]) {
      assert.ok(invoice.includes(amount), `the invoice lacks ${amount}:\n${invoice}`);
    }

    // 3. The unit: live phases, reliability and the recent disconnections.
    // Timers of 30 s run after 300 ms here, so that the page's refresh can be seen.
    await page.evaluateOnNewDocument(() => {
      const set = globalThis.setTimeout;
      // deno-lint-ignore no-explicit-any
      (globalThis as any).setTimeout = (fn: () => void, ms?: number) =>
        set(fn, ms === 30_000 ? 300 : ms);
    });
    await page.goto(`${portal.url}/customer/installations/${station}`, { waitUntil: "load" });
    const month = monthlyPeriod(today.year, today.month);
    await Promise.all([
      page.waitForNavigation(),
      page.click(
        `a[href='/customer/installations/${station}/unit/${sensors[1]}?month=${month}']`,
      ),
    ]);
    assert.match(await text(page, "h1"), /Depto 102/);
    const phases = await text(page, "[data-testid=unit-phases]");
    assert.match(phases, /Phase A[\s\S]*600\.00[\s\S]*4\.70[\s\S]*127\.50/);
    assert.match(await text(page, "[data-testid=disconnection-count]"), /^6$/);
    const events = await text(page, "[data-testid=unit-disconnections]");
    assert.equal(events.match(/Resolved/g)?.length, 5);
    assert.match(events, /Showing 5 most recent events out of 6 total/);
    assert.match(await text(page, "[data-testid=unit-info]"), /OW0002/);
    await assertFitsAndAccessible(page);
    // A new reading shows without reloading the page.
    assert.match(await text(page, "[data-testid=unit-cards]"), /1200\.00 W/);
    portal.deps.telemetry.write([{
      serial: "OW0002",
      ts: Date.now(),
      values: { total_energy_kwh: 1113, total_power: 2345, phase_a_power: 1111 },
    }]);
    await portal.deps.telemetry.flush();
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=unit-cards]")?.textContent?.includes("2345.00 W")
    );
    assert.match(await text(page, "[data-testid=unit-phases]"), /1111\.00/);
  });
});
