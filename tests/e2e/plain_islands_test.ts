/**
 * The islands that run as plain scripts keep their behaviour in Chromium: a field's error
 * clears on edit (ClearErrors); a Delete button asks in a dialog that Escape and Cancel
 * close, giving the focus back, before confirming posts (ConfirmSubmit); the dashboard's
 * chart switches mode in place (EnergyChart).
 */
import assert from "node:assert/strict";
import { getUser } from "../../db/users.ts";
import { addAccount, adminWithMeter, freshPage, signedInPage, signIn, test } from "./_browser.ts";

test("a field's error clears as soon as the field is edited", async ({ portal, browser }) => {
  const page = await freshPage(browser);
  await page.goto(`${portal.url}/register`, { waitUntil: "load" });
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.$eval("form:has([name=full_name])", (f) => (f as HTMLFormElement).submit()),
  ]);
  await page.waitForSelector("[data-island=ClearErrors][data-ready]");
  assert.equal(await page.$eval("#full_name", (el) => el.getAttribute("aria-invalid")), "true");
  assert.equal(await page.$eval("#full_name-error", (el) => (el as HTMLElement).hidden), false);
  await page.type("#full_name", "Ana");
  assert.equal(await page.$eval("#full_name", (el) => el.getAttribute("aria-invalid")), null);
  assert.equal(await page.$eval("#full_name-error", (el) => (el as HTMLElement).hidden), true);
});

test("Delete asks in a dialog: Escape and Cancel keep the account, Confirm deletes it", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const tenant = await addAccount(portal, "user");
  const page = await freshPage(browser);
  await signIn(page, portal, admin.email, admin.password);
  await page.goto(`${portal.url}/admin/users?q=${encodeURIComponent(tenant.email)}`, {
    waitUntil: "load",
  });
  const form = `form[action="/admin/users/${tenant.user.id}/delete"]`;
  await page.waitForSelector(`[data-island=ConfirmSubmit][data-ready] ${form}`);
  const opener = `${form} > button[type=submit]`;
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

  assert.equal(await page.$("[role=dialog] [data-testid=confirm-delete]"), null);
  await page.click(opener);
  await page.waitForSelector("[role=dialog] [data-testid=confirm-delete]", { visible: true });
  assert.equal(await focused(), "confirm-delete", "the focus is on Confirm");
  await page.keyboard.press("Escape");
  await page.waitForSelector("[role=dialog]", { hidden: true });
  assert.equal(
    await page.evaluate((s) => document.activeElement === document.querySelector(s), opener),
    true,
    "Escape gives the focus back to Delete",
  );

  await page.click(opener);
  await page.click("[role=dialog] [data-cancel]");
  await page.waitForSelector("[role=dialog]", { hidden: true });
  assert.ok(await getUser(portal.deps.kv, tenant.user.id), "still there after Cancel");

  await page.click(opener);
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[role=dialog] [data-testid=confirm-delete]"),
  ]);
  assert.equal(await getUser(portal.deps.kv, tenant.user.id), null, "deleted on Confirm");
});

test("the dashboard chart switches mode in place: links, address and series follow", async ({ portal, browser }) => {
  const { page } = await adminWithMeter(browser, portal, "ST-MODES", "SIMMODES1");
  const series: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/measurements?type=power")) series.push(new URL(r.url()).search);
  });
  await page.goto(`${portal.url}/admin?tab=chart`, { waitUntil: "load" });
  await page.waitForSelector("[data-island=EnergyChart][data-ready]");
  await page.waitForFunction(() =>
    document.querySelector("[data-testid=chart-yield]")?.textContent !== "..."
  );
  await page.evaluate(() => (globalThis as { stayed?: boolean }).stayed = true);

  await page.click("a.seg[data-mode=month]");
  await page.waitForSelector("a.seg[data-mode=month][aria-current=page]");
  assert.match(page.url(), /\/admin\?tab=chart&mode=month&date=\d{4}-\d{2}-\d{2}$/);
  await page.waitForFunction(() =>
    document.querySelector("[data-testid=chart-yield]")?.textContent !== "..."
  );
  assert.ok(series.some((q) => q.includes("mode=month")), series.join(", "));
  assert.equal(await page.$eval(".date-nav", (el) => (el as HTMLElement).hidden), false);
  assert.equal(await page.$("a.seg[data-mode=day][aria-current]"), null);

  await page.click("a.seg[data-mode=total]");
  await page.waitForSelector("a.seg[data-mode=total][aria-current=page]");
  assert.equal(await page.$eval(".date-nav", (el) => (el as HTMLElement).hidden), true);
  assert.equal(
    await page.evaluate(() => (globalThis as { stayed?: boolean }).stayed),
    true,
    "no page load: the chart changed in place",
  );
});

test("the account form's role field shows the customer fields for customers and warns of a reset", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  const customer = await addAccount(portal, "customer");
  const page = await signedInPage(browser, portal, admin);
  const customerFields = () =>
    page.$eval("fieldset:has(#company_name)", (el) => getComputedStyle(el).display !== "none");

  await page.goto(`${portal.url}/admin/users/accounts-form/customer`, { waitUntil: "load" });
  await page.waitForSelector("[data-island=RoleSelect][data-ready]");
  assert.equal(await customerFields(), true);
  assert.equal(await page.$("[data-island=RoleSelect] .hint"), null, "no 'customers only' hint");
  await page.select("#role", "user");
  assert.equal(await customerFields(), false);
  assert.equal(await page.$("[data-testid=role-warning]"), null, "a new account resets nothing");

  await page.goto(`${portal.url}/admin/users/accounts-form/customer/${customer.user.id}`, {
    waitUntil: "load",
  });
  await page.waitForSelector("[data-island=RoleSelect][data-ready]");
  assert.equal(await page.$("[data-testid=role-warning]"), null);
  await page.select("#role", "user");
  await page.waitForSelector("[data-testid=role-warning]", { visible: true });
  await page.select("#role", "customer");
  await page.waitForSelector("[data-testid=role-warning]", { hidden: true });
  assert.equal(await customerFields(), true);
});
