/**
 * Price versions end to end in headless Chromium against the real portal: an operator creates a
 * zone from the CFE tariff 1 preset (200 kWh bill at the preset's figure), changes its prices
 * "from next month" in the zone form, runs last month and recalculates the month before from
 * the unit report; both keep the old prices to the cent in the API, the report page and the PDF.
 */
import assert from "node:assert/strict";
import * as e2e from "./_browser.ts";
import { meter } from "../_billing_world.ts";
import type { TestApp } from "../_helpers.ts";
import { pdfText } from "../_pdf_text.ts";
import { localParts } from "../../core/local_time.ts";
import { monthlyPeriod } from "../../core/periods.ts";

/** The local month `delta` months from now, `YYYY-MM`. */
function monthFrom(now: number, offset: number, delta: number): string {
  const { year, month } = localParts(now, offset);
  const i = year * 12 + month - 1 + delta;
  return monthlyPeriod(Math.floor(i / 12), (i % 12) + 1);
}

e2e.test("new prices from next month keep last month's run and an older recalculation at the old prices", async ({ portal, browser }) => {
  const offset = portal.deps.config.utcOffsetMinutes;
  const now = Date.now();
  const [twoAgo, last, next] = [-2, -1, 1].map((d) => monthFrom(now, offset, d));
  const admin = await e2e.addAccount(portal, "admin", { language: "en" });
  const api = await e2e.portalApi(portal, admin.user);
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${portal.url}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${api.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const page = await e2e.signedInPage(browser, portal, admin);

  // 1. A zone from the tariff 1 preset, through the form.
  await page.goto(`${portal.url}/admin/zones/create?preset=cfe_1`, { waitUntil: "load" });
  const note = await page.$eval("[data-testid=preset-note]", (e) => e.textContent ?? "");
  assert.match(note, /2024-01/);
  assert.deepEqual(await e2e.axeSerious(page), [], "accessibility of the preset form");
  await page.type("#name", "CFE 1 Monterrey");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=save-zone]"),
  ]);
  assert.match(page.url(), /done=created/);
  const { zones } = await json("GET", "/api/zones");
  const zone = zones.find((z: { name: string }) => z.name === "CFE 1 Monterrey");
  assert.equal(zone.minimum_monthly_kwh, 25);
  assert.equal(zone.tariff_preset, "cfe_1");
  const { station } = await e2e.apiStation(api, {
    serial: "CFE-1",
    zoneId: zone.id,
    units: ["Casa 1"],
    sensors: [{ serial: "SIM-CFE", unit: "unit_1" }],
  });
  const t = { deps: portal.deps } as unknown as TestApp;
  await meter(t, "SIM-CFE", twoAgo, 200);
  await json("POST", "/api/unified-billing/process", { period: twoAgo, zone_id: zone.id });
  const billOf = async (period: string) => {
    const { bills } = await json("GET", "/api/bills");
    return bills.find((b: { billing_month: string }) => b.billing_month === period);
  };
  // The reference's case A under the spec's per-block rounding: 433.69 (433.68 rounding once).
  assert.equal((await billOf(twoAgo)).total_cost, 433.69);

  // 2. New prices from next month, in the zone form.
  await page.goto(`${portal.url}/admin/zones/${zone.id}/edit`, { waitUntil: "load" });
  assert.deepEqual(await e2e.axeSerious(page), [], "accessibility of the edit form");
  await page.$eval("input[name=level_price_0]", (e) => ((e as HTMLInputElement).value = "2"));
  await page.click("input[name=price_change][value=new]");
  await page.$eval("#effective_from", (e, v) => ((e as HTMLInputElement).value = v), next);
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=save-zone]"),
  ]);
  assert.match(page.url(), /done=updated/);
  await page.goto(`${portal.url}/admin/zones/${zone.id}`, { waitUntil: "load" });
  const rows = await page.$$eval(
    "[data-testid=zone-versions] tbody tr",
    (trs) => trs.map((r) => r.getAttribute("data-applies-from")),
  );
  assert.deepEqual(rows, [`${next}-01`, "first"]);
  assert.deepEqual(await e2e.axeSerious(page), [], "accessibility of the zone page");
  const { versions } = await json("GET", `/api/zones/${zone.id}/versions`);
  assert.deepEqual(
    versions.map((v: { applies_from: string | null; price_low: number }) => [
      v.applies_from,
      v.price_low,
    ]),
    [[null, 1.015], [`${next}-01`, 2]],
  );

  // 3. Last month billed now, and the month before recalculated from the unit report.
  await meter(t, "SIM-CFE", last, 200);
  await json("POST", "/api/unified-billing/process", { period: last, zone_id: zone.id });
  assert.equal((await billOf(last)).total_cost, 433.69);
  await page.goto(
    `${portal.url}/admin/report/station/${station}/unit/unit_1?month=${twoAgo}`,
    { waitUntil: "load" },
  );
  const row = `#period-${twoAgo}`;
  await page.click(`${row} .recalc-dialog > summary`);
  await page.click(`${row} input[value=manual_input]`);
  await page.type(`${row} input[name=energy_consumption]`, "200");
  const button = `${row} .recalc-form button[type=submit]`;
  await page.waitForFunction(
    (s) => !document.querySelector<HTMLButtonElement>(s)?.disabled,
    {},
    button,
  );
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(button)]);
  const recalculated = await billOf(twoAgo);
  assert.equal(recalculated.recalculation_method, "manual_input");
  assert.equal(recalculated.total_cost, 433.69);

  // 4. The report page and the PDF of both months say the same, to the cent.
  for (const period of [twoAgo, last]) {
    await page.goto(
      `${portal.url}/admin/report/station/${station}/unit/unit_1?month=${period}`,
      { waitUntil: "load" },
    );
    const text = await page.$eval(`#period-${period}`, (e) => (e as HTMLElement).innerText);
    assert.match(text, /433\.69/, `report of ${period}`);
    assert.doesNotMatch(text, /2\.00 MXN|2\.000/, `report of ${period} has no new price`);
    const bytes = await page.evaluate(async (path) => {
      const res = await fetch(path);
      return Array.from(new Uint8Array(await res.arrayBuffer()));
    }, `/admin/report/station/${station}/pdf?type=unit&period=${period}&unit=unit_1&language=en`);
    const { lines } = await pdfText(new Uint8Array(bytes));
    assert.ok(lines.some((l) => l.includes("433.69")), `PDF of ${period}: ${lines.join(" | ")}`);
    assert.ok(lines.some((l) => l.includes("76.13")), `PDF of ${period} prices 75 kWh at 1.015`);
  }
});
