/**
 * Test-mode payments across a restart, in headless Chromium against the real composition root
 * (`main.ts --demo`, its own local Openpay sandbox): the demo tenant generates an SPEI
 * reference, the portal restarts on the same data folder, the reference is still the one shown
 * (its receipt served by the portal), and the admin's "simulate transfer" pays it: the tenant's
 * page shows it paid.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  freePort,
  freshPage,
  lastMonth,
  launchBrowser,
  pathOf,
  spawnPortal,
  submitLogin,
  until,
} from "./_browser.ts";
import { loadConfig } from "../../services/platform/config.ts";
import { DEMO_ZONE_NAME } from "../../services/demo_devices.ts";

const ADMIN = { email: "admin@restart.e2e.mx", password: "restart-admin-pass" };
const TENANT = { email: "inquilino@demo.mx", password: "demo1234" };

const text = (page: Page, sel: string) => page.$eval(sel, (el) => el.textContent ?? "");

async function signIn(page: Page, url: string, who: { email: string; password: string }) {
  await page.goto(`${url}/login`, { waitUntil: "load" });
  await submitLogin(page, who.email, who.password);
}

Deno.test("the demo portal restarts with an open SPEI reference and the payment completes", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "portal-restart-" });
  const port = freePort();
  const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
  const launched = await launchBrowser();
  let portal = await spawnPortal({ demo: true, dataDir, port, env });
  try {
    const url = portal.url;
    assert.ok(
      portal.output.some((l) => /OPENPAY_MERCHANT_ID=\S+ OPENPAY_PRIVATE_KEY=\S+/.test(l)),
      "the demo prints the sandbox's credentials",
    );
    // The admin bills last month of the demo zone.
    const login = await fetch(`${url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: token } = await login.json();
    const auth = { authorization: `Bearer ${token}` };
    const { zones } = await (await fetch(`${url}/api/zones`, { headers: auth })).json();
    const zone = zones.find((z: { name: string }) => z.name === DEMO_ZONE_NAME);
    const month = lastMonth(loadConfig({}).utcOffsetMinutes);
    const run = await fetch(`${url}/unified-billing/process`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ zone_id: zone.id, period: month.text }),
    });
    assert.equal(run.status, 200, await run.clone().text());
    await run.body?.cancel();

    // The tenant generates a reference.
    const page = await freshPage(launched.browser);
    await page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
    await signIn(page, url, TENANT);
    await page.goto(`${url}/user/payments`, { waitUntil: "load" });
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=open-payment]"),
    ]);
    await page.waitForSelector("[data-island=GenerateReference] button:not([disabled])");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=generate-reference]"),
    ]);
    assert.match(pathOf(page), /^\/user\/payment\/success\?bill=\d+$/);
    const formPath = pathOf(page);
    const clabe = (await text(page, "[data-testid=spei-clabe]")).trim();

    // The portal restarts on the same data folder.
    await portal.close();
    portal = await spawnPortal({ demo: true, dataDir, port, env });
    await page.goto(`${url}${formPath}`, { waitUntil: "load" });
    assert.equal((await text(page, "[data-testid=spei-clabe]")).trim(), clabe);
    assert.match(await text(page, "[data-testid=payment-status]"), /En espera/);
    const receipt = await page.$eval("[data-testid=receipt-link]", (a) => a.getAttribute("href"));
    assert.match(receipt ?? "", /^\/user\/payment\/receipt\?bill=\d+$/);
    const pdf = await page.evaluate(async (href) => {
      const res = await fetch(href);
      return `${res.status} ${res.headers.get("content-type")}`;
    }, receipt!);
    assert.equal(pdf, "200 application/pdf");

    // The admin simulates the transfer from the Payments page: the tenant sees it paid.
    const adminPage = await freshPage(launched.browser);
    await signIn(adminPage, url, ADMIN);
    await adminPage.goto(`${url}/admin/payments`, { waitUntil: "load" });
    await Promise.all([
      adminPage.waitForNavigation({ waitUntil: "load" }),
      adminPage.click("[data-testid=simulate-transfer]"),
    ]);
    assert.ok(await adminPage.$(".notice[role=status]"), "the transfer was simulated");
    assert.doesNotMatch(await adminPage.content(), /ya no reconoce|no longer knows/);
    await until(
      "the bill paid on the tenant's page",
      async () => /Pagado/.test(await text(page, "[data-testid=payment-status]")),
      15_000,
    );
  } finally {
    await portal.close();
    await launched.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
