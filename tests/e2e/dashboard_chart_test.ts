/**
 * The dashboard's energy chart in a real browser: the page preloads the chart's series,
 * the island uses that response instead of asking again, draws the series and says so
 * with `data-ready` (what the phone-load benchmark waits for).
 */
import assert from "node:assert/strict";
import { adminWithMeter, test } from "./_browser.ts";
import { dayStart, localDate } from "../../core/local_time.ts";

test("the dashboard chart draws today's series from the preloaded request and marks itself ready", async ({ portal, browser }) => {
  const { page } = await adminWithMeter(browser, portal, "ST-CHART", "SIMCHART1");
  const off = portal.deps.config.utcOffsetMinutes;
  const now = Date.now();
  const midnight = dayStart(localDate(now, off), off);
  const samples = [];
  for (let ts = midnight, kwh = 100; ts <= now; ts += 15 * 60_000, kwh += 0.5) {
    samples.push({
      serial: "SIMCHART1",
      ts,
      values: { total_power: 1500, total_energy_kwh: kwh },
    });
  }
  portal.deps.telemetry.write(samples);
  await portal.deps.telemetry.flush();

  const seriesRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/measurements?type=power")) seriesRequests.push(r.url());
  });
  await page.goto(`${portal.url}/admin?tab=chart`, { waitUntil: "load" });
  await page.waitForSelector('.chart-box[data-ready="true"]');
  assert.ok(await page.$(".chart-box canvas"), "uPlot drew on a canvas");
  const drawn = await page.evaluate(() =>
    performance.getEntriesByName("energy-chart-drawn").length
  );
  assert.equal(drawn, 1, "one performance mark for the first draw");
  assert.equal(seriesRequests.length, 1, `one series request: ${seriesRequests.join(", ")}`);
  const yieldText = await page.$eval("[data-testid=chart-yield]", (e) => e.textContent ?? "");
  assert.notEqual(yieldText, "...", "the summary shows the loaded series");
});

test("the first paint carries the chart: the server's sketch stands without JavaScript, and uPlot's chart takes its place", async ({ portal, browser }) => {
  const { page } = await adminWithMeter(browser, portal, "ST-SKETCH", "SIMSKETCH1");
  const off = portal.deps.config.utcOffsetMinutes;
  const midnight = dayStart(localDate(Date.now(), off), off);
  // A rising day: the sketch's area has a shape, not a flat line.
  const samples = [];
  for (let i = 0; i <= 8; i++) {
    samples.push({
      serial: "SIMSKETCH1",
      ts: midnight + i * 15 * 60_000,
      values: { total_power: 500 * (i + 1), total_energy_kwh: 100 + i },
    });
  }
  portal.deps.telemetry.write(samples);
  await portal.deps.telemetry.flush();

  await page.setJavaScriptEnabled(false);
  await page.goto(`${portal.url}/admin?tab=chart`, { waitUntil: "load" });
  const sketch = await page.$eval(".card [data-chart-preview]", (svg) => {
    const box = svg.getBoundingClientRect();
    return { d: svg.querySelector("path")?.getAttribute("d") ?? "", h: box.height, w: box.width };
  });
  assert.match(sketch.d, /^M0 [\d.]+L/, "an area drawn from the day's first quarter hour");
  assert.equal(sketch.h, 280, "the height of the chart that replaces it");
  assert.ok(sketch.w > 200, `as wide as the card: ${sketch.w}`);

  await page.setJavaScriptEnabled(true);
  await page.goto(`${portal.url}/admin?tab=chart`, { waitUntil: "load" });
  await page.waitForSelector('.chart-box[data-ready="true"]');
  assert.equal(await page.$("[data-chart-preview]"), null, "the sketch gave way to uPlot's chart");
});
