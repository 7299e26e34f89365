/**
 * The sensor page's meters in a real browser with JavaScript turned off: a refused manual
 * reading comes back with its error under the field and what was typed, a good one is listed
 * as Manual, Replace Meter starts a new meter in the history; the page fits a phone and axe
 * finds nothing serious.
 */
import assert from "node:assert/strict";
import { adminWithMeter, assertFitsAndAccessible, signedInPage, test, textOf } from "./_browser.ts";

test("without JavaScript, the sensor page takes a manual reading and a meter replacement", async ({ portal, browser }) => {
  const { admin, page, sensorPage: url } = await adminWithMeter(
    browser,
    portal,
    "ST-MTR",
    "SIMMTR1",
  );
  await page.setJavaScriptEnabled(false);
  await page.setViewport({ width: 375, height: 800 });
  await page.goto(url, { waitUntil: "load" });
  const submit = async (form: string) => {
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click(`form[action$="/meter/${form}"] button[type=submit]`),
    ]);
  };

  await page.type("#reading-kwh", "-5");
  await page.type("#reading-note", "Lectura en sitio");
  await submit("reading");
  assert.equal(
    await textOf(page, "#reading-kwh-error"),
    "The meter index must be a number of at least 0 kWh",
  );
  assert.equal(
    await page.$eval("#reading-note", (e) => (e as HTMLInputElement).value),
    "Lectura en sitio",
  );

  await page.$eval("#reading-kwh", (e) => (e as HTMLInputElement).value = "");
  // Read two hours ago (the portal's local time, UTC-6): before the replacement below.
  const earlier = new Date(Date.now() - 2 * 3_600_000 - 360 * 60_000).toISOString().slice(0, 16);
  await page.$eval("#reading-at", (e, v) => (e as HTMLInputElement).value = v, earlier);
  await page.type("#reading-kwh", "12,5");
  await submit("reading");
  assert.match(await textOf(page, "[data-testid=meter-notice]"), /Manual reading saved/);
  const listed = await textOf(page, "[data-testid=manual-readings] tbody");
  assert.match(listed, /Manual/);
  assert.match(listed, /12\.5/);
  assert.match(listed, /Lectura en sitio/);

  await page.type("#replace-serial_number", "SIMMTR2");
  await page.type("#replace-first_kwh", "0,2");
  await submit("replace");
  assert.match(await textOf(page, "[data-testid=meter-notice]"), /Meter replaced/);
  const history = await textOf(page, "[data-testid=meter-history] tbody");
  assert.match(
    history,
    /SIMMTR2[\s\S]*In service[\s\S]*0\.2[\s\S]*SIMMTR1[\s\S]*Since installation/,
  );

  // The page with both lists and a refused form, checked with scripts on (axe runs in it).
  const scripted = await signedInPage(browser, portal, admin);
  await scripted.setViewport({ width: 375, height: 800 });
  await scripted.goto(url, { waitUntil: "load" });
  await scripted.type("#reading-kwh", "abc");
  await Promise.all([
    scripted.waitForNavigation({ waitUntil: "load" }),
    scripted.click('form[action$="/meter/reading"] button[type=submit]'),
  ]);
  assert.match(await textOf(scripted, "#reading-kwh-error"), /at least 0 kWh/);
  await assertFitsAndAccessible(scripted);
});
