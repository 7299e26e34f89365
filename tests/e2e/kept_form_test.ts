/**
 * In the browser: a settings form saved after the session ended lands on sign-in saying the
 * changes were kept, and after signing in the form shows them again, ready to save.
 */
import assert from "node:assert/strict";
import { addAccount, freshPage, signIn, submitLogin, test } from "./_browser.ts";
import { issueToken } from "../../services/platform/tokens.ts";

test("a form posted after the session ended comes back filled in after sign-in", async ({ portal, browser }) => {
  const me = await addAccount(portal, "user", { full_name: "Nombre Original" });
  const page = await freshPage(browser);
  await signIn(page, portal, me.email, me.password);
  await page.goto(`${portal.url}/user/settings`, { waitUntil: "load" });
  await page.$eval("#full_name", (el) => (el as HTMLInputElement).value = "");
  await page.type("#full_name", "Nombre Tras La Pausa");
  // The session ends while the person types (an hour-long pause, a laptop asleep).
  const then = Date.now() - 2 * 3_600_000;
  const expired = await issueToken(portal.deps.secret, me.user, then, 3_600, {
    ver: 0,
    authTime: Math.floor(then / 1000),
  });
  await page.setCookie({
    name: "token",
    value: expired,
    url: portal.url,
    httpOnly: true,
    sameSite: "Lax",
  });
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("form.form button[type=submit]"),
  ]);
  assert.match(new URL(page.url()).pathname, /^\/login$/);
  const notice = await page.$eval("[data-testid=session-expired]", (el) => el.textContent);
  assert.match(notice ?? "", /sus cambios se conservaron/);
  await submitLogin(page, me.email, me.password);
  assert.equal(new URL(page.url()).pathname, "/user/settings");
  await page.waitForFunction(() =>
    (document.querySelector("#full_name") as HTMLInputElement).value === "Nombre Tras La Pausa"
  );
  assert.match(
    await page.$eval("[data-testid=kept-form]", (el) => el.textContent ?? ""),
    /Revíselos y guarde/,
  );
  // Nothing was saved meanwhile; saving now does.
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("form.form button[type=submit]"),
  ]);
  assert.match(page.url(), /saved=1/);
  assert.equal(
    await page.$eval("#full_name", (el) => (el as HTMLInputElement).value),
    "Nombre Tras La Pausa",
  );
});
