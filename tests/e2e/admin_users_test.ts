/**
 * The users management page in Chromium (the newcomer's issue): Desactivar asks in a dialog
 * before it signs a person out (Cancel keeps the account active, Confirm deactivates it), and
 * the admin's own row offers neither Desactivar nor Eliminar.
 */
import assert from "node:assert/strict";
import { getUser } from "../../db/users.ts";
import { addAccount, freshPage, signIn, test } from "./_browser.ts";

test("Desactivar asks in a dialog; Cancel keeps the account active, Confirm deactivates it", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin", { language: "es" });
  const tenant = await addAccount(portal, "user", { full_name: "Lucía Pérez" });
  const page = await freshPage(browser);
  await signIn(page, portal, admin.email, admin.password);
  await page.goto(`${portal.url}/admin/users?tab=tenants`, { waitUntil: "load" });
  const form = `form[action="/admin/users/${tenant.user.id}/toggle"]`;
  await page.waitForSelector(`[data-island=ConfirmSubmit][data-ready] ${form}`);
  const opener = `${form} > button[type=submit]`;
  assert.equal(await page.$eval(opener, (b) => b.textContent), "Desactivar");

  await page.click(opener);
  await page.waitForSelector("[role=dialog] [data-testid=confirm-delete]", { visible: true });
  const dialog = await page.$eval(
    "[role=dialog]:has([data-testid=confirm-delete])",
    (d) => d.textContent ?? "",
  );
  assert.match(dialog, /Desactivar cuenta/);
  assert.match(dialog, /¿Seguro que desea desactivar a Lucía Pérez\?/);
  await page.click("[role=dialog] [data-cancel]");
  await page.waitForSelector("[role=dialog]:has([data-testid=confirm-delete])", { hidden: true });
  assert.equal((await getUser(portal.deps.kv, tenant.user.id))?.is_active, true, "Cancel");

  await page.click(opener);
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[role=dialog] [data-testid=confirm-delete]"),
  ]);
  assert.equal((await getUser(portal.deps.kv, tenant.user.id))?.is_active, false, "Confirm");
  // Activating again needs no confirmation.
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click(`${form} > button[type=submit]`),
  ]);
  assert.equal((await getUser(portal.deps.kv, tenant.user.id))?.is_active, true, "Activar");

  await page.goto(`${portal.url}/admin/users?tab=admins`, { waitUntil: "load" });
  const own = await page.$eval(`[data-user-id="${admin.user.id}"]`, (r) => r.textContent ?? "");
  assert.doesNotMatch(own, /Desactivar|Eliminar/);
  assert.match(own, /Editar/);
});
