/**
 * The certificate part of the sensor page in a real browser with JavaScript turned off:
 * Verify Certificates shows its result on the page, Renew does not go without its
 * confirmation box and then shows a new fingerprint, and the client.pem link downloads the
 * sensor's certificate with the admin's session cookie.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { adminWithMeter, test } from "./_browser.ts";

test("without JavaScript, Verify Certificates and Renew work from the sensor page and client.pem downloads", async ({ portal, browser }) => {
  const { page, sensorPage } = await adminWithMeter(browser, portal, "ST-CERT", "SIMCERT1");
  await page.setJavaScriptEnabled(false);
  await page.goto(sensorPage, { waitUntil: "load" });
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
