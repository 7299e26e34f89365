/**
 * The operator's billing path in headless Chromium against the real portal: define a CFE-like
 * tiered zone with the zone form and its level editor, give a station that zone on the
 * station form, process last month on the unit billing screen, and read the exact bills.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  addAccount,
  apiStation,
  meterLastMonth,
  pathOf,
  portalApi,
  signedInPage,
  test,
} from "./_browser.ts";

const typeInto = async (page: Page, selector: string, value: string) => {
  await page.$eval(selector, (el) => ((el as HTMLInputElement).value = ""));
  await page.type(selector, value);
};

test("an operator defines a CFE-like zone, prices a station with it and bills last month from the screen", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const { station: stationId } = await apiStation(await portalApi(portal, admin.user), {
    serial: "TF-01",
    name: "Residencial Tarifa",
    units: ["Depto 101", "Depto 102"],
    sensors: [{ serial: "TF0001", unit: "unit_1" }, { serial: "TF0002", unit: "unit_2" }],
  });
  // Meter counters: unit 1 uses 100 kWh in the month, unit 2 uses 200 kWh.
  const month = await meterLastMonth(portal, { TF0001: [1000, 1100], TF0002: [500, 700] });

  const page = await signedInPage(browser, portal, admin);

  // 1. The zone: CFE tariff 1 (75 kWh at 1.015, next 65 at 1.239, then 3.620), IVA 16 %.
  await page.goto(`${portal.url}/admin/zones/create`, { waitUntil: "load" });
  await page.type("#name", "CFE Tarifa 1");
  await page.click("input[name=pricing_mode][value=tiered]");
  await page.waitForSelector("[data-testid=levels-table]");
  await page.click("[data-testid=add-level]");
  await page.click("[data-testid=add-level]");
  const levels = [["1.015", "75"], ["1.239", "140"], ["3.62", "0"]];
  for (const [i, [price, threshold]] of levels.entries()) {
    await typeInto(page, `input[name=level_price_${i}]`, price);
    await typeInto(page, `input[name=level_threshold_${i}]`, threshold);
  }
  await typeInto(page, "#tax_percentage", "16");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=save-zone]"),
  ]);
  assert.equal(pathOf(page), "/admin/pricing?done=created");

  // 2. The station takes the zone on its form.
  await page.goto(`${portal.url}/admin/devices/station/${stationId}`, { waitUntil: "load" });
  const zoneValue = await page.$$eval(
    "#zone_id option",
    (os) => os.find((o) => o.textContent === "CFE Tarifa 1")?.getAttribute("value") ?? "",
  );
  assert.ok(zoneValue, "the zone is offered on the station form");
  await page.select("#zone_id", zoneValue);
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=save-station]"),
  ]);
  assert.match(
    pathOf(page),
    new RegExp(`^/admin/devices/station/${stationId}/data\\?done=updated$`),
  );

  // 3. Process last month on the unit billing screen, confirming in the dialog.
  await page.goto(
    `${portal.url}/admin/units-billing?zone_id=${zoneValue}&year=${month.year}&period=${month.text}`,
    { waitUntil: "load" },
  );
  await page.click("[data-testid=process] button");
  await page.waitForSelector("[role=dialog] [data-testid=confirm-delete]");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[role=dialog] [data-testid=confirm-delete]"),
  ]);
  const result = await page.$eval("[data-testid=result]", (el) => el.textContent ?? "");
  // Two unit bills and the station's bill, counted apart, finalized (last month has ended).
  const created = await page.$eval(
    "[data-count=row_created]",
    (row) => [...row.querySelectorAll("td")].map((td) => td.textContent),
  );
  assert.deepEqual(created, ["2", "1"], result);
  assert.match(result, /las facturas quedaron finalizadas/, result);
  assert.match(result, /Estaciones procesadas: 1/, result);

  // 4. Exact bills: 100 kWh → 76.13 + 30.98 = 107.11, tax 17.14, total 124.25;
  //    200 kWh → 76.13 + 80.54 + 217.20 = 373.87, tax 59.82, total 433.69.
  const list = await page.$eval("main", (m) => m.textContent ?? "");
  assert.ok(list.includes("124.25"), `unit 1's total is listed: ${list}`);
  assert.ok(list.includes("433.69"), "unit 2's total is listed");
  assert.ok(list.includes("Depto 101") && list.includes("Depto 102"));
});
