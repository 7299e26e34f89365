/**
 * The dashboard's energy chart in a real browser: the page preloads the chart's series,
 * the island uses that response instead of asking again, draws the series and says so
 * with `data-ready` (what the phone-load benchmark waits for).
 */
import assert from "node:assert/strict";
import { addAccount, freshPage, signIn, withPortalAndBrowser } from "./_browser.ts";
import { dayStart, localDate } from "../../core/local_time.ts";

async function api(base: string, token: string, path: string, json: unknown): Promise<number> {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(json),
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.id;
}

Deno.test("the dashboard chart draws today's series from the preloaded request and marks itself ready", async () => {
  await withPortalAndBrowser(async (portal, browser) => {
    const admin = await addAccount(portal, "admin", { language: "en" });
    const login = await fetch(`${portal.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    const token = (await login.json()).access_token as string;
    const stationId = await api(portal.url, token, "/api/devices", {
      name: "Estación Chart",
      location: JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" }),
      serial_number: "ST-CHART",
      station_id: "st-chart",
      zone_id: null,
      type: "station",
      config: {
        mqtt: { username: "station-chart", password: "station-pass", topic_prefix: "x" },
        station: {
          ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
          units: [{ id: "unit_1", name: "Depto 101", ssr_id: "ssr_1" }],
        },
      },
    });
    await api(portal.url, token, `/api/devices/${stationId}/sensors`, {
      name: "Medidor chart",
      serial_number: "SIMCHART1",
      type: "sensor",
      config: {
        mqtt: { username: "simchart1", password: "pw-sensor", topic_prefix: "x" },
        sensor: { unit_id: "unit_1", tenant_id: null, ip_address: "10.0.0.5" },
      },
    });
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

    const page = await freshPage(browser);
    await signIn(page, portal, admin.email, admin.password);
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
});
