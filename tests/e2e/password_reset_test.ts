/**
 * Password reset in Chromium on a phone (issue 28): a tenant follows "Forgot your password?"
 * from the sign-in page at 360x740, gets the mail through a real SMTP receiver, opens its link,
 * chooses a new password and signs in with it; the old one no longer works.
 */
import assert from "node:assert/strict";
import {
  addAccount,
  assertFitsAndAccessible,
  pathOf,
  phonePage,
  submitLogin,
  test,
} from "./_browser.ts";
import { mailsTo, receiver } from "../_mail.ts";
import { deliverDue } from "../../services/messages/mod.ts";

test("a tenant uses 'forgot password' on a phone and signs in with the new one", async ({ portal, browser }) => {
  const r = await receiver();
  const dir = await Deno.makeTempDir();
  try {
    portal.deps.config.publicUrl = new URL(portal.url);
    const tenant = await addAccount(portal, "user", { language: "es" });
    const { page, logged } = await phonePage(browser, dir);
    await page.goto(`${portal.url}/login`, { waitUntil: "load" });
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("a[href='/forgot-password']"),
    ]);
    await assertFitsAndAccessible(page);
    await page.type("#email", tenant.email);
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("form[action='/forgot-password'] button[type=submit]"),
    ]);
    await page.waitForSelector("[data-testid=forgot-sent]");

    await deliverDue(portal.deps, r.senders());
    const [mail] = mailsTo(r, tenant.email);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=\S+)/.exec(mail?.text ?? "");
    assert.ok(link, "the mail carries the reset link");

    await page.goto(link[1], { waitUntil: "load" });
    await assertFitsAndAccessible(page);
    await page.type("#password", "farola-azul-2026");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("form[action='/reset-password'] button[type=submit]"),
    ]);
    assert.equal(pathOf(page), "/login?reset=1");

    await submitLogin(page, tenant.email, tenant.password);
    assert.equal(pathOf(page), "/login", "the old password no longer works");
    await page.evaluate(() => {
      (document.querySelector("#email") as HTMLInputElement).value = "";
    });
    await submitLogin(page, tenant.email, "farola-azul-2026");
    assert.equal(new URL(page.url()).pathname, "/user");
    const errors = logged.filter((e) => e.kind === "error" || e.kind === "pageerror");
    assert.deepEqual(errors.filter((e) => !/401/.test(e.text)), []);
  } finally {
    await r.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
