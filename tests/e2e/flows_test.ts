/**
 * End-to-end flows in headless Chromium against the real portal: registration with an
 * access code, sign-in to each role's home, the guard that keeps the asked-for page, an
 * admin creating a customer, the language switch, the phone drawer, and sign-in without
 * JavaScript.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import {
  addAccount,
  freshPage,
  pathOf,
  randomAccessCode,
  signedInPage,
  signIn,
  submitLogin,
  test,
  textOf as text,
  until,
} from "./_browser.ts";

const htmlLang = (page: Page) => page.$eval("html", (el) => el.lang);

test("a person registers with an access code in the browser, signs in and reaches /user", async ({ portal, browser }) => {
  const t = portal.deps.i18n.t("es");
  const admin = await addAccount(portal, "admin");

  // The admin creates a tenant access code through the API with a bearer token.
  const login = await fetch(`${portal.url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  assert.equal(login.status, 200);
  const { access_token } = await login.json();
  assert.ok(access_token, "the login answer carries an access token");
  const code = randomAccessCode();
  const created = await fetch(`${portal.url}/api/users/access-codes`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ code, role: "user", notes: "e2e" }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  await created.body?.cancel();

  const page = await freshPage(browser);
  await page.goto(`${portal.url}/register`, { waitUntil: "load" });
  // The island has hydrated once its tab list (rendered only in the browser) exists.
  await page.waitForSelector("[data-island=TermsConsent] [role=tablist]");

  const email = `nueva-${crypto.randomUUID().slice(0, 8)}@e2e.mx`;
  await page.type("#full_name", "María José Pérez");
  await page.type("#email", email);
  await page.select("select[name=phone_country]", "MX");
  await page.type("#phone", "5512345678");
  await page.type("#password", "nueva123");
  await page.type("#confirm_password", "nueva123");
  await page.type("#accessCode", code.toLowerCase());

  // Ticking the box opens the terms dialog instead of ticking it.
  await page.click("#terms");
  await page.waitForSelector("#terms-dialog.open", { visible: true });
  assert.equal(await page.$eval("#terms", (el) => (el as HTMLInputElement).checked), false);
  const tabs = await page.$$eval("#terms-dialog [role=tab]", (els) => els.length);
  assert.equal(tabs, 2, "the dialog has the terms and the privacy tab");
  await page.click("[data-testid=terms-accept]");
  await page.waitForSelector("#terms-dialog.open", { hidden: true });
  assert.equal(await page.$eval("#terms", (el) => (el as HTMLInputElement).checked), true);

  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("form[action='/register'] button[type=submit]"),
  ]);
  assert.equal(pathOf(page), "/login?registered=1");
  assert.equal(await text(page, ".alert-success"), t("auth.register.success"));

  await submitLogin(page, email, "nueva123");
  assert.equal(pathOf(page), "/user");
  assert.equal(await text(page, "[data-testid=sidebar-email]"), email);
});

test("signing in takes each role to its home, and the guard returns to the asked-for page", async ({ portal, browser }) => {
  const homes = [["admin", "/admin"], ["customer", "/customer"], ["user", "/user"]] as const;
  for (const [role, home] of homes) {
    const acc = await addAccount(portal, role);
    const page = await freshPage(browser);
    await signIn(page, portal, acc.email, acc.password);
    assert.equal(pathOf(page), home, `${role} lands on ${home}`);
    assert.equal(await text(page, "[data-testid=sidebar-email]"), acc.email);
    await page.browserContext().close();
  }

  const admin = await addAccount(portal, "admin");
  const page = await freshPage(browser);
  await page.goto(`${portal.url}/admin/users`, { waitUntil: "load" });
  const url = new URL(page.url());
  assert.equal(url.pathname, "/login");
  assert.equal(url.searchParams.get("next"), "/admin/users");
  await submitLogin(page, admin.email, admin.password);
  assert.equal(pathOf(page), "/admin/users", "after sign-in the guard returns to /admin/users");
});

test("an admin creates a customer with the account form and finds it under Customers", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const page = await signedInPage(browser, portal, admin);
  const res = await page.goto(`${portal.url}/admin/users/accounts-form/customer`, {
    waitUntil: "load",
  });
  assert.equal(res?.status(), 200);
  assert.equal(
    pathOf(page),
    "/admin/users/accounts-form/customer",
    "the account form exists (not redirected away)",
  );
  const email = `cliente-${crypto.randomUUID().slice(0, 8)}@e2e.mx`;
  const form = "form:has([name=email])";
  await page.type(`${form} [name=email]`, email);
  await page.type(`${form} [name=full_name]`, "Cliente de Prueba");
  await page.type(`${form} [name=phone]`, "+52 55 1111 2222");
  await page.type(`${form} [name=password]`, "cliente123");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click(`${form} button[type=submit]`),
  ]);
  assert.equal(
    await page.$$eval("[aria-invalid=true]", (els) => els.length),
    0,
    "the form was accepted",
  );
  await page.goto(`${portal.url}/admin/users?tab=customers`, { waitUntil: "load" });
  const body = await text(page, "main");
  assert.ok(body.includes(email), `the customers tab lists ${email}`);
  assert.ok(body.includes("Cliente de Prueba"));
});

test("the language switch on /login sticks in a cookie, and after sign-in the profile language wins", async ({ portal, browser }) => {
  const en = portal.deps.i18n.t("en");
  const de = portal.deps.i18n.t("de");
  const es = portal.deps.i18n.t("es");
  const page = await freshPage(browser);

  await page.goto(`${portal.url}/login`, { waitUntil: "load" });
  assert.equal(await htmlLang(page), "es", "Spanish by default");
  assert.equal(await text(page, "h1"), es("auth.login.title"));

  await page.goto(`${portal.url}/login?lang=en`, { waitUntil: "load" });
  assert.equal(pathOf(page), "/login", "the switch redirects to the clean URL");
  assert.equal(await htmlLang(page), "en");
  assert.equal(await text(page, "h1"), en("auth.login.title"));
  assert.equal(await text(page, "button[type=submit]"), en("auth.login.submit"));

  // Clicking the German link of the switch.
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click(".lang-switch a[hreflang=de]"),
  ]);
  assert.equal(await htmlLang(page), "de");
  assert.equal(await text(page, "h1"), de("auth.login.title"));
  const cookies = await page.browserContext().cookies();
  assert.equal(cookies.find((c) => c.name === "auth_language")?.value, "de");

  // The choice sticks on later visits without ?lang=.
  await page.goto(`${portal.url}/register`, { waitUntil: "load" });
  assert.equal(await htmlLang(page), "de");
  assert.equal(await text(page, "h1"), de("auth.register.title"));
  await page.goto(`${portal.url}/login`, { waitUntil: "load" });
  assert.equal(await text(page, "h1"), de("auth.login.title"));

  // After sign-in the profile's language (English) wins over the cookie (German).
  const acc = await addAccount(portal, "customer", { language: "en" });
  await submitLogin(page, acc.email, acc.password);
  assert.equal(pathOf(page), "/customer");
  assert.equal(await htmlLang(page), "en");
  assert.equal(await text(page, ".sidebar-foot button"), en("layout.sign_out"));

  // Changing the language in settings changes the interface.
  await page.goto(`${portal.url}/customer/settings`, { waitUntil: "load" });
  await page.select("#language", "es");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("main form button[type=submit]"),
  ]);
  assert.equal(pathOf(page), "/customer/settings?saved=1");
  assert.equal(await htmlLang(page), "es");
  assert.equal(await text(page, ".sidebar-foot button"), es("layout.sign_out"));
});

test("on a phone the sidebar is a drawer: the menu button slides it in, the overlay closes it", async ({ portal, browser }) => {
  const acc = await addAccount(portal, "user");
  const page = await freshPage(browser);
  await page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
  await signIn(page, portal, acc.email, acc.password);
  assert.equal(pathOf(page), "/user");

  const box = async () => {
    const b = await (await page.$("#sidebar"))!.boundingBox();
    assert.ok(b, "the sidebar has a box");
    return b;
  };
  const closed = async () => {
    const b = await box();
    return b.x + b.width <= 0;
  };
  assert.ok(await closed(), `the sidebar starts off-screen (${JSON.stringify(await box())})`);

  await page.tap(".menu-toggle");
  await until("the drawer to slide in", async () => (await box()).x >= 0);
  const open = await box();
  assert.ok(open.x >= 0 && open.x + open.width <= 360, "the drawer lies within the screen");
  assert.ok(
    await page.$eval("#sidebar [data-testid=sidebar-email]", (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right <= innerWidth;
    }),
    "the e-mail in the drawer is visible",
  );

  // Tap the overlay where the drawer does not cover it.
  const x = Math.round((open.x + open.width + 360) / 2);
  const hit = await page.evaluate(
    (x, y) => document.elementFromPoint(x, y)?.className ?? "",
    x,
    400,
  );
  assert.match(String(hit), /drawer-overlay/, "the overlay is what lies beside the drawer");
  await page.touchscreen.tap(x, 400);
  await until("the drawer to close", closed);
});

test("/login sends no JavaScript and signing in works with JavaScript disabled", async ({ portal, browser }) => {
  const acc = await addAccount(portal, "admin");
  const page = await freshPage(browser);
  await page.goto(`${portal.url}/login`, { waitUntil: "load" });
  assert.equal(await page.$$eval("script[src]", (els) => els.length), 0);
  assert.equal(await page.$$eval("link[rel=modulepreload]", (els) => els.length), 0);

  await page.setJavaScriptEnabled(false);
  await page.goto(`${portal.url}/login`, { waitUntil: "load" });
  await submitLogin(page, acc.email, acc.password);
  assert.equal(pathOf(page), "/admin");
  assert.equal(await text(page, "[data-testid=sidebar-email]"), acc.email);

  // A wrong password re-renders the form with the error, still without JavaScript.
  const ctx = await browser.createBrowserContext();
  const other = await ctx.newPage();
  await other.setJavaScriptEnabled(false);
  await other.goto(`${portal.url}/login`, { waitUntil: "load" });
  await submitLogin(other, acc.email, "wrong-password");
  assert.equal(pathOf(other), "/login");
  assert.equal(
    await text(other, "[data-testid=login-error]"),
    portal.deps.i18n.t("es")("auth.errors.invalid_credentials"),
  );
});
