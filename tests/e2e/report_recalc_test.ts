/**
 * The recalculation dialog of the unit report in headless Chromium against the real portal:
 * the hydrated form keeps its button disabled until a method is chosen and the manual input
 * is valid, shows the spec's message for invalid input, fills the reason from the method,
 * and the recalculated bill comes back with the success text.
 */
import assert from "node:assert/strict";
import { addAccount, apiStation, portalApi, signedInPage, test } from "./_browser.ts";
import { defaultZone } from "../../core/zone.ts";
import { createZone } from "../../db/zones.ts";
import { getUnitBillOf, writeStationBills } from "../../db/bills.ts";
import { billPeriod, fresh, unitBillDraft } from "../_bills.ts";

test("an operator recalculates a past bill with manual input from the unit report", async ({ portal, browser }) => {
  const kv = portal.deps.kv;
  const admin = await addAccount(portal, "admin", { language: "en" });
  const zone = await createZone(kv, {
    ...defaultZone("Basic"),
    price_low: 2,
    base_tariff: 10,
    tax_percentage: 10,
  }, Date.now());
  const { station } = await apiStation(await portalApi(portal, admin.user), {
    serial: "SUR-1",
    name: "Sur",
    zoneId: zone.id,
    units: ["Local 1"],
    sensors: [],
  });
  const draft = unitBillDraft({
    station_id: station,
    ...billPeriod("2025-06"),
    energy_cost: 20000,
    base_tariff: 1000,
    tax_cost: 2100,
    total_cost: 23100,
    payment_due_date: "2025-07-14",
    zone_id: zone.id,
  });
  const written = await writeStationBills(
    kv,
    station,
    "2025-06",
    [fresh(draft)],
    null,
    Date.now(),
  );
  assert.ok(written.ok);

  const page = await signedInPage(browser, portal, admin);
  await page.goto(`${portal.url}/admin/report/station/${station}/unit/unit_1?month=2025-06`, {
    waitUntil: "load",
  });
  const row = "#period-2025-06";
  await page.click(`${row} .recalc-dialog > summary`);
  const button = `${row} .recalc-form button[type=submit]`;
  // Hydrated: disabled while no method is chosen.
  await page.waitForFunction(
    (s) => document.querySelector<HTMLButtonElement>(s)?.disabled,
    {},
    button,
  );
  await page.click(`${row} input[value=manual_input]`);
  await page.type(`${row} input[name=energy_consumption]`, "abc");
  await page.waitForFunction(
    (r) =>
      document.querySelector(r)?.textContent?.includes(
        "Invalid consumption input: Invalid number format",
      ),
    {},
    `${row} .recalc-form`,
  );
  assert.equal(await page.$eval(button, (b) => (b as HTMLButtonElement).disabled), true);
  await page.$eval(
    `${row} input[name=energy_consumption]`,
    (el) => ((el as HTMLInputElement).value = ""),
  );
  await page.click(`${row} input[name=energy_consumption]`, { count: 3 });
  await page.keyboard.press("Backspace");
  await page.type(`${row} input[name=energy_consumption]`, "120,5");
  await page.waitForFunction(
    (s) => !document.querySelector<HTMLButtonElement>(s)?.disabled,
    {},
    button,
  );
  assert.equal(
    await page.$eval(
      `${row} textarea[name=override_reason]`,
      (t) => (t as HTMLTextAreaElement).value,
    ),
    "Recalculated using manual consumption input: 120.5 kWh",
  );
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(button)]);
  const text = await page.evaluate(() => document.body.innerText);
  assert.ok(
    text.includes("Bill for June 2025 has been recalculated successfully using Manual Input."),
    text.slice(0, 400),
  );
  const bill = await getUnitBillOf(kv, station, "2025-06", "unit_1");
  // 120.5 × 2 = 241.00; base 10.00; tax 10 % of 251.00 = 25.10.
  assert.equal(bill?.total_cost, 27610);
  assert.equal(bill?.recalculation_method, "manual_input");
});
