/**
 * The admin dashboard as spec 000 shows it (the newcomer's issue): the chart's earning in
 * KMXP, the Month chart's bars with a line; a failed overview or device count shows "Dashboard
 * Error" with "Failed to fetch overview: {status}" / "Failed to fetch devices: {status}",
 * Retry and Refresh, and the figures back to zero.
 */
import assert from "node:assert/strict";
import { adminWithMeter, test, textOf, until } from "./_browser.ts";
import { localDate } from "../../core/local_time.ts";

test("the Month chart draws bars and a line; the earning is in KMXP", async ({ portal, browser }) => {
  const { page } = await adminWithMeter(browser, portal, "ST-KMXP", "SIMKMXP1");
  const today = localDate(Date.now(), portal.deps.config.utcOffsetMinutes);
  await page.goto(`${portal.url}/admin?tab=chart&mode=month&date=${today}`, { waitUntil: "load" });
  await until("the earning", async () => /KMXP/.test(await textOf(page, "[data-earning]")));
  assert.match(await textOf(page, "[data-earning]"), /^\d+\.\d{2} KMXP$/);
  // With data, the month's chart is bars plus a line.
  const H = 3_600_000;
  portal.deps.telemetry.write([
    { serial: "SIMKMXP1", ts: Date.now() - 30 * H, values: { total_energy_kwh: 10 } },
    { serial: "SIMKMXP1", ts: Date.now() - 2 * H, values: { total_energy_kwh: 40 } },
  ]);
  await portal.deps.telemetry.flush();
  await page.goto(`${portal.url}/admin?tab=chart&mode=month&date=${today}`, { waitUntil: "load" });
  await page.waitForSelector('.chart-box[data-ready="true"]');
  assert.equal(
    await page.$eval(".chart-box", (b) => (b as HTMLElement).dataset.series),
    "bars line",
  );
  await page.goto(`${portal.url}/admin?tab=chart&mode=day&date=${today}`, { waitUntil: "load" });
  await page.waitForSelector('.chart-box[data-ready="true"]');
  assert.equal(await page.$eval(".chart-box", (b) => (b as HTMLElement).dataset.series), "area");
});

test("a failed overview and device count: 'Dashboard Error', the fetch texts, figures at zero", async ({ portal, browser }) => {
  const { page } = await adminWithMeter(browser, portal, "ST-ERR", "SIMERR1");
  await page.goto(`${portal.url}/admin`, { waitUntil: "load" });
  // The server's figures are shown first (one station, one sensor).
  assert.equal(await textOf(page, "[data-testid=stat-stations] .stat-value"), "1");
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    const url = r.url();
    if (url.includes("/api/measurements/overview")) void r.respond({ status: 503, body: "" });
    else if (url.includes("/api/devices/stats")) void r.respond({ status: 500, body: "" });
    else void r.continue();
  });
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector("[data-testid=dashboard-error]");
  await until(
    "both failures",
    async () => /Failed to fetch devices/.test(await textOf(page, "[data-testid=dashboard-error]")),
  );
  const box = await textOf(page, "[data-testid=dashboard-error]");
  assert.match(box, /^Dashboard Error: /);
  assert.match(box, /Failed to fetch overview: 503/);
  assert.match(box, /Failed to fetch devices: 500/);
  assert.match(box, /Retry/);
  assert.ok(await page.$("[data-testid=dashboard-error] a[href]"), "a Refresh link");
  for (const k of ["stations", "sensors", "online", "units"]) {
    assert.equal(await textOf(page, `[data-testid=stat-${k}] .stat-value`), "0", k);
  }
  assert.equal(await textOf(page, "[data-testid=energy-power] .energy-value"), "0.00");
  assert.equal(await textOf(page, "[data-testid=energy-total] .energy-value"), "0.000");
});
