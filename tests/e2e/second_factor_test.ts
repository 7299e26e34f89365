/**
 * The second factor in headless Chromium on a phone (360x740): an admin turns it on in
 * Settings (QR code, secret, first code, recovery codes shown once), then signs in with the
 * password and the code page, and lands on the dashboard. Both pages fit and pass axe.
 */
import assert from "node:assert/strict";
import {
  addAccount,
  assertFitsAndAccessible,
  pathOf,
  phonePage,
  signIn,
  test,
  textOf,
} from "./_browser.ts";
import { codeAt } from "../../services/platform/totp.ts";

test("an admin turns on the second factor and signs in with a TOTP code on a phone", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const dir = await Deno.makeTempDir({ prefix: "totp-" });
  try {
    const { page, logged } = await phonePage(browser, dir);
    await signIn(page, portal, admin.email, admin.password);
    await page.goto(`${portal.url}/admin/settings`, { waitUntil: "load" });
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("[data-testid=second-factor] a"),
    ]);
    assert.equal(pathOf(page), "/admin/settings/second-factor");
    await page.waitForSelector("[data-testid=totp-qr]");
    await assertFitsAndAccessible(page);
    const secret = (await textOf(page, "[data-testid=totp-secret]")).trim();
    await page.type("#code", codeAt(secret, Date.now()));
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("form[action$='/confirm'] button[type=submit]"),
    ]);
    const codes = await page.$$eval("[data-testid=recovery-codes] li", (li) => li.length);
    assert.equal(codes, 10);
    await assertFitsAndAccessible(page);

    // A new phone session: the password, then the code page, then the dashboard.
    const other = await phonePage(browser, dir);
    const p2 = other.page;
    await p2.goto(`${portal.url}/login`, { waitUntil: "load" });
    await p2.type("#email", admin.email);
    await p2.type("#password", admin.password);
    await Promise.all([
      p2.waitForNavigation({ waitUntil: "load" }),
      p2.click("form[action='/login'] button[type=submit]"),
    ]);
    await p2.waitForSelector("form[action='/login/second-factor']");
    await assertFitsAndAccessible(p2);
    // The code of the next step: the one of setup's step is used already.
    await p2.type("#code", codeAt(secret, Date.now() + 30_000));
    await Promise.all([
      p2.waitForNavigation({ waitUntil: "load" }),
      p2.click("form[action='/login/second-factor'] button[type=submit]"),
    ]);
    assert.equal(pathOf(p2), "/admin");
    const errors = [...logged, ...other.logged].filter((e) =>
      e.kind === "error" || e.kind === "pageerror"
    );
    assert.deepEqual(errors, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
