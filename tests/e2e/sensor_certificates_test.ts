/**
 * The certificate part of the sensor page in a real browser with JavaScript turned off:
 * Verify Certificates shows its result on the page, Renew does not go without its
 * confirmation box and then shows a new fingerprint, and the client.pem link downloads the
 * sensor's certificate with the admin's session cookie.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { addAccount, freshPage, signIn, withPortalAndBrowser } from "./_browser.ts";

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

Deno.test("without JavaScript, Verify Certificates and Renew work from the sensor page and client.pem downloads", async () => {
  await withPortalAndBrowser(async (portal, browser) => {
    const admin = await addAccount(portal, "admin", { language: "en" });
    const login = await fetch(`${portal.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    const token = (await login.json()).access_token as string;
    const stationId = await api(portal.url, token, "/api/devices", {
      name: "Estación Cert",
      location: JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" }),
      serial_number: "ST-CERT",
      station_id: "st-cert",
      zone_id: null,
      type: "station",
      config: {
        mqtt: { username: "station-cert", password: "station-pass", topic_prefix: "x" },
        station: {
          ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
          units: [{ id: "unit_1", name: "Depto 101", ssr_id: "ssr_1" }],
        },
      },
    });
    const sensorId = await api(portal.url, token, `/api/devices/${stationId}/sensors`, {
      name: "Medidor cert",
      serial_number: "SIMCERT1",
      type: "sensor",
      config: {
        mqtt: { username: "simcert1", password: "pw-sensor", topic_prefix: "x" },
        sensor: { unit_id: "unit_1", tenant_id: null, ip_address: "10.0.0.5" },
      },
    });
    const page = await freshPage(browser);
    await signIn(page, portal, admin.email, admin.password);
    await page.setJavaScriptEnabled(false);
    const path = `/admin/devices/station/${stationId}/sensor/${sensorId}/data`;
    await page.goto(portal.url + path, { waitUntil: "load" });
    const fingerprint = () =>
      page.$eval("[data-testid=certificate-fingerprint]", (e) => e.textContent ?? "");
    const first = await fingerprint();
    assert.match(first, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=verify-form] button"),
    ]);
    const result = await page.$eval("[data-testid=verify-result]", (e) => e.textContent ?? "");
    assert.match(result, /Certificates verified: signed by the portal's CA/);

    // The confirmation box is required: the browser does not send the form without it.
    await page.click("[data-testid=renew-form] button");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await fingerprint(), first);
    await page.click("[data-testid=renew-form] input[name=confirm]");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=renew-form] button"),
    ]);
    const notice = await page.$eval("[data-testid=certificate-notice]", (e) => e.textContent);
    assert.match(notice ?? "", /A new certificate was issued/);
    const second = await fingerprint();
    assert.notEqual(second, first);

    const href = await page.$eval("[data-testid=download-cert]", (e) => e.getAttribute("href"));
    const cookies = await page.browserContext().cookies();
    const res = await fetch(portal.url + href, {
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-disposition"), 'attachment; filename="client.pem"');
    assert.equal(new X509Certificate(await res.text()).fingerprint256, second);
  });
});
