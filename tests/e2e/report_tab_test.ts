/**
 * A tenant's report PDF (spec 001, reports): opens in a new tab in a desktop browser, is
 * downloaded under its file name on iOS, and a failed download is an alert on the bill list,
 * also sent to the portal's log by the browser's logger.
 */
import assert from "node:assert/strict";
import {
  addAccount,
  apiStation,
  downloadedPdf,
  freshPage,
  meterLastMonth,
  pathOf,
  type Portal,
  portalApi,
  signIn,
  test,
  until,
} from "./_browser.ts";
import { createZone } from "../../db/zones.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { tieredZone } from "../_billing_world.ts";

/** A tenant with last month's bill; answers them, their station and the month. */
async function billedTenant(portal: Portal) {
  const tenant = await addAccount(portal, "user", { language: "en" });
  const zone = await createZone(portal.deps.kv, tieredZone(), Date.now());
  const admin = await addAccount(portal, "admin");
  const { station } = await apiStation(await portalApi(portal, admin.user), {
    serial: "RT-01",
    zoneId: zone.id,
    units: ["Depto 101"],
    sensors: [{ serial: "RT0001", unit: "unit_1", tenant: tenant.user.id }],
  });
  const month = await meterLastMonth(portal, { RT0001: [1000, 1300] });
  await runBilling(portal.deps, zone.id, month.text);
  return { tenant, station, month };
}

test("a bill's report opens in a new tab; a failed one is an alert on the list", async ({ portal, browser }) => {
  const { tenant, month } = await billedTenant(portal);
  const page = await freshPage(browser);
  await signIn(page, portal, tenant.email, tenant.password);
  await page.goto(`${portal.url}/user/billing?period=${month.text}`, { waitUntil: "load" });
  const opened = browser.waitForTarget((t) => t.url().startsWith("blob:"), { timeout: 10_000 });
  await page.click("[data-testid=bill-report]");
  const tab = await opened;
  assert.ok(tab.url().startsWith(`blob:${portal.url}/`), tab.url());
  assert.equal(pathOf(page), `/user/billing?period=${month.text}`, "the list stays open");
  assert.equal(await page.$("[data-testid=download-error]"), null);
  await (await tab.page())?.close();
  await page.bringToFront();
  // The server fails: the list says so, and no empty tab stays open.
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (r.url().includes("/user/billing/report")) r.respond({ status: 500, body: "down" });
    else r.continue();
  });
  const tabs = (await browser.pages()).length;
  await page.click("[data-testid=bill-report]");
  await page.bringToFront();
  const alert = await page.waitForSelector(
    "[data-testid=period-bills] > [data-testid=download-error][role=alert]",
  );
  assert.match(await alert!.evaluate((e) => e.textContent ?? ""), /Error downloading report/);
  await page.bringToFront();
  await until("the blank tab is closed", async () => (await browser.pages()).length === tabs);
  // The browser's log reached the portal's /logging (spec 000's client log sink).
  await until(
    "the failure is logged",
    () =>
      portal.deps.log.lines.some((l) =>
        l.message === "client log" && l.client_message === "HTTP error! status: 500" &&
        l.component === "ReportDownload"
      ),
  );
});

test("on iOS a bill's report is downloaded under its file name", async ({ portal, browser }) => {
  const { tenant, station, month } = await billedTenant(portal);
  const dir = await Deno.makeTempDir({ prefix: "ios-download-" });
  try {
    const context = await browser.createBrowserContext({
      downloadBehavior: { policy: "allow", downloadPath: dir },
    });
    const page = await context.newPage();
    await page.setUserAgent(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 " +
        "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    );
    await signIn(page, portal, tenant.email, tenant.password);
    await page.goto(`${portal.url}/user/billing?period=${month.text}`, { waitUntil: "load" });
    await page.click("[data-testid=bill-report]");
    await downloadedPdf(dir, `monthly_report_${station}_unit_1_${month.text}.pdf`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
