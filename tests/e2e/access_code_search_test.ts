/**
 * Create Access Code in the browser on a fleet larger than its checklists: typing a search
 * and pressing Enter shows what matches (without "Creating..." and without creating a code),
 * a ticked station stays ticked across searches, and Create assigns it.
 */
import assert from "node:assert/strict";
import { addAccount, signedInPage, test } from "./_browser.ts";
import { bulkStations } from "../_bulk_stations.ts";
import { listAccessCodes } from "../../db/access_codes.ts";

test("a search in the access code form keeps the ticks and creates nothing until Create", async ({ portal, browser }) => {
  const ids = (await bulkStations(portal.deps.kv, 55, { name: "Torre", prefix: "T", units: 1 }))
    .map((s) => s.id);
  const admin = await addAccount(portal, "admin", { language: "en" });
  const page = await signedInPage(browser, portal, admin);
  // Once hydrated, the form shows only the checklist of the chosen type.
  const hydrated = (hidden: "stations" | "units") =>
    page.waitForFunction(
      (list) => !document.querySelector(`[data-testid=${list}-list]`),
      {},
      hidden,
    );
  await page.goto(`${portal.url}/admin/access-codes/create`, { waitUntil: "load" });
  await hydrated("stations"); // Tenant at first
  await page.click("input[name=role][value=customer]");
  const boxes = () =>
    page.$$eval(
      "input[name=stations]",
      (els) => els.map((e) => [(e as HTMLInputElement).value, (e as HTMLInputElement).checked]),
    );
  assert.equal((await boxes()).length, 50);
  assert.match(
    await page.$eval("[data-testid=stations-list]", (e) => e.textContent!),
    /Showing 50 of 55/,
  );
  await page.click(`input[name=stations][value="${ids[0]}"]`);

  await page.type("#choice-q", "Torre 055");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.keyboard.press("Enter"),
  ]);
  await hydrated("units"); // Customer, as posted
  assert.deepEqual(
    await listAccessCodes(portal.deps.kv),
    [],
    "Enter in the search created nothing",
  );
  // The ticked station and the one found.
  assert.deepEqual(await boxes(), [[String(ids[0]), true], [String(ids[54]), false]]);
  await page.click(`input[name=stations][value="${ids[54]}"]`);
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=create-code]"),
  ]);
  assert.match(page.url(), /\/admin\/users\?tab=access-codes&done=code_created$/);
  const [code] = await listAccessCodes(portal.deps.kv);
  assert.equal(code.role, "customer");
  assert.deepEqual(code.assignments.stations, [ids[0], ids[54]]);
});
