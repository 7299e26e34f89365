/**
 * The header's terms and privacy dialog (spec 000, layout): the header's link opens a dialog
 * with two tabs, Terms first; the Privacy tab shows the notice instead; Accept and Escape
 * close it, focus back on the link, and the page never leaves.
 */
import assert from "node:assert/strict";
import { addAccount, signedInPage, test } from "./_browser.ts";

test("the header's terms link opens a two-tab dialog", async ({ portal, browser }) => {
  const me = await addAccount(portal, "user", { language: "en" });
  const page = await signedInPage(browser, portal, me);
  const before = page.url();
  const visible = (doc: string) =>
    page.$eval(`#terms-privacy [data-doc=${doc}]`, (el) => !(el as HTMLElement).hidden);
  await page.click("a[data-terms-dialog]");
  await page.waitForSelector("#terms-privacy.open", { visible: true });
  assert.equal(page.url(), before, "the page stays");
  const tabs = await page.$$eval(
    "#terms-privacy [role=tab]",
    (els) => els.map((e) => [e.textContent, e.getAttribute("aria-selected")]),
  );
  assert.deepEqual(tabs, [["Terms and conditions", "true"], ["Privacy notice", "false"]]);
  assert.equal(await visible("terms"), true);
  assert.equal(await visible("privacy"), false);
  assert.match(
    await page.$eval("#terms-privacy [data-doc=terms]", (e) => e.textContent ?? ""),
    /Términos y Condiciones/,
  );
  assert.equal(
    await page.$eval("#terms-privacy [data-tab=terms]", (e) => e.getAttribute("aria-current")),
    "page",
    "the chosen tab is marked",
  );
  await page.click("#terms-privacy [data-tab=privacy]");
  assert.equal(await visible("terms"), false);
  assert.equal(await visible("privacy"), true);
  // Accept closes it; the link has the focus again.
  await page.click("[data-testid=terms-privacy-accept]");
  await page.waitForSelector("#terms-privacy", { hidden: true });
  assert.equal(
    await page.evaluate(() => document.activeElement?.hasAttribute("data-terms-dialog")),
    true,
  );
  // Opened again it shows the Terms tab; Escape closes it.
  await page.click("a[data-terms-dialog]");
  await page.waitForSelector("#terms-privacy.open", { visible: true });
  assert.equal(await visible("terms"), true);
  await page.keyboard.press("Escape");
  await page.waitForSelector("#terms-privacy", { hidden: true });
  assert.equal(page.url(), before);
});
