/**
 * With JavaScript, a certificate download that fails is said on the sensor page's download
 * list ('Failed to download {type} certificate: {status}', spec 000) instead of a broken file,
 * and a working one is still saved under its name.
 */
import assert from "node:assert/strict";
import { adminWithMeter, signIn, test, until } from "./_browser.ts";

test("a failed certificate download is an alert on the download list", async ({ portal, browser }) => {
  const { admin, sensorPage } = await adminWithMeter(browser, portal, "ST-DL", "SIMDL01");
  const dir = await Deno.makeTempDir({ prefix: "cert-download-" });
  try {
    const context = await browser.createBrowserContext({
      downloadBehavior: { policy: "allow", downloadPath: dir },
    });
    const page = await context.newPage();
    await signIn(page, portal, admin.email, admin.password);
    await page.goto(sensorPage, { waitUntil: "load" });
    await page.click("[data-testid=download-cert]");
    await until(
      "client.pem is saved",
      async () => (await Deno.stat(`${dir}/client.pem`).then((s) => s.size, () => 0)) > 100,
    );
    assert.equal(await page.$("[data-testid=download-error]"), null);
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (r.url().endsWith("/certificates/ca")) r.respond({ status: 503, body: "{}" });
      else r.continue();
    });
    await page.click("[data-testid=download-ca]");
    const alert = await page.waitForSelector(
      "[data-download-alerts] > [data-testid=download-error]",
    );
    assert.equal(
      await alert!.evaluate((e) => e.textContent),
      "Failed to download ca certificate: 503",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
