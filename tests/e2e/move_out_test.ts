/**
 * A move-out walked in headless Chromium at 360x740 (issue 24): the admin records it on the
 * sensor page with the meter's reading and the final bill, and the newcomer's move-in; the old
 * tenant sees the final bill and pays it by SPEI (the local Openpay sandbox); after the month's
 * run the new tenant sees only their part.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  addAccount,
  apiStation,
  assertFits,
  freshPage,
  lastMonth,
  pathOf,
  portalApi,
  signIn,
  test,
  textOf,
  until,
  withOpenpaySandbox,
} from "./_browser.ts";
import { tieredZone } from "../_billing_world.ts";
import { createZone } from "../../db/zones.ts";
import { listUnitBills } from "../../db/bills.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { localDate } from "../../core/local_time.ts";
import { formatter } from "../../core/format.ts";

const H = 3_600_000;
const DAY = 24 * H;
const phone = { width: 360, height: 740, isMobile: true, hasTouch: true };

/** Sets a form field's value (a date input is typed as its ISO text). */
const setValue = (page: Page, sel: string, value: string) =>
  page.$eval(sel, (el, v) => (el as HTMLInputElement).value = v, value);

test("a move-out on a phone: recorded with a reading, the final bill paid by the old tenant, the newcomer sees only their part", async ({ portal, browser }) => {
  await withOpenpaySandbox(portal, "me2emerchant0002", async () => {
    const off = portal.deps.config.utcOffsetMinutes;
    const admin = await addAccount(portal, "admin", { language: "es" });
    const ana = await addAccount(portal, "user", { full_name: "Ana Salida", language: "es" });
    const beto = await addAccount(portal, "user", { full_name: "Beto Llega", language: "es" });
    const zone = await createZone(portal.deps.kv, tieredZone(), Date.now());
    const api = await portalApi(portal, admin.user);
    const { station, sensors } = await apiStation(api, {
      serial: "MO-01",
      name: "Torre Mudanza",
      zoneId: zone.id,
      units: ["Depto 7"],
      sensors: [{ serial: "MO0001", unit: "unit_1", tenant: ana.user.id }],
    });
    // Last month: 1000 kWh at its start, 1060 an hour before the 16th, 1100 at its end.
    const month = lastMonth(off);
    const moveDay = month.from + 15 * DAY;
    portal.deps.telemetry.write([
      { serial: "MO0001", ts: month.from + H, values: { total_energy_kwh: 1000 } },
      { serial: "MO0001", ts: moveDay - H, values: { total_energy_kwh: 1060 } },
      { serial: "MO0001", ts: month.to - H, values: { total_energy_kwh: 1100 } },
    ]);
    await portal.deps.telemetry.flush();

    // The admin, on a phone: the sensor page, the move-out on the 16th at 1061 kWh.
    const page = await freshPage(browser);
    await page.setViewport(phone);
    await signIn(page, portal, admin.email, admin.password);
    const sensorPage = `/admin/devices/station/${station}/sensor/${sensors[0]}/data`;
    await page.goto(`${portal.url}${sensorPage}`, { waitUntil: "load" });
    assert.match(await textOf(page, "[data-testid=tenancies]"), /Ana Salida/);
    await setValue(page, "#out-date", localDate(moveDay, off));
    await page.type("#out-reading", "1061");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("form[action$='/tenancy/move-out'] button[type=submit]"),
    ]);
    assert.match(await textOf(page, "[data-testid=tenancies]"), /Salida registrada/);
    // Beto moves in the same day.
    await page.select("#in-tenant", String(beto.user.id));
    await setValue(page, "#in-date", localDate(moveDay, off));
    await page.type("#in-reading", "1061");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("form[action$='/tenancy/move-in'] button[type=submit]"),
    ]);
    const history = await page.$$eval(
      "[data-testid=tenancy]",
      (els) => els.map((e) => e.textContent ?? ""),
    );
    assert.equal(history.length, 2, history.join(" | "));
    assert.match(history[0], new RegExp(`Beto Llega.*${localDate(moveDay, off)}.*Actual`));
    assert.match(history[1], new RegExp(`Ana Salida.*${localDate(moveDay - DAY, off)}`));
    assert.match(history[1], /1,061 kWh/);
    await assertFits(page);

    // The final bill: Ana's 15 days, 61 kWh, finalized at once.
    const [final] = await listUnitBills(portal.deps.kv, station);
    assert.equal(final.tenant_id, ana.user.id);
    assert.equal(final.energy_consumption, 61);
    assert.equal(final.is_finalized, true);

    // Ana, on her phone, sees it and pays it by SPEI.
    const anaPage = await freshPage(browser);
    await anaPage.setViewport(phone);
    await signIn(anaPage, portal, ana.email, ana.password);
    await anaPage.goto(`${portal.url}/user/payments`, { waitUntil: "load" });
    const due = formatter(ana.user.language ?? "es").money(final.total_cost, final.currency);
    assert.ok((await textOf(anaPage, "[data-testid=payment-row]")).includes(due), due);
    await Promise.all([
      anaPage.waitForNavigation({ waitUntil: "load" }),
      anaPage.click("[data-testid=open-payment]"),
    ]);
    await anaPage.waitForSelector("[data-island=GenerateReference] button:not([disabled])");
    await Promise.all([
      anaPage.waitForNavigation({ waitUntil: "load" }),
      anaPage.click("[data-testid=generate-reference]"),
    ]);
    assert.equal(pathOf(anaPage), `/user/payment/success?bill=${final.id}`);
    await page.goto(`${portal.url}/admin/payments`, { waitUntil: "load" });
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click(`[data-bill="${final.id}"] [data-testid=simulate-transfer]`),
    ]);
    await until(
      "the final bill paid on Ana's page",
      async () => /Pagado/.test(await textOf(anaPage, "[data-testid=payment-status]")),
      10_000,
    );

    // The month's run bills Beto's part; he sees it and not Ana's.
    await runBilling(portal.deps, zone.id, month.text);
    const bills = await listUnitBills(portal.deps.kv, station);
    const mine = bills.find((b) => b.tenant_id === beto.user.id)!;
    assert.equal(mine.energy_consumption, 39);
    assert.equal(bills.find((b) => b.id === final.id)?.payment_status, "paid");
    const betoPage = await freshPage(browser);
    await betoPage.setViewport(phone);
    await signIn(betoPage, portal, beto.email, beto.password);
    await betoPage.goto(`${portal.url}/user/payments`, { waitUntil: "load" });
    const rows = await betoPage.$$eval(
      "[data-testid=payment-row]",
      (els) => els.map((e) => e.getAttribute("data-bill")),
    );
    assert.deepEqual(rows, [String(mine.id)]);
    await assertFits(betoPage);
    // His lease dates on his settings page.
    await betoPage.goto(`${portal.url}/user/settings`, { waitUntil: "load" });
    assert.match(
      await textOf(betoPage, "[data-testid=leases]"),
      new RegExp(`Depto 7.*Torre Mudanza.*${localDate(moveDay, off)}`),
    );
  });
});
