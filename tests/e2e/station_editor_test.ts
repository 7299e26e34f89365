/**
 * The StationEditor island in headless Chromium: SSRs get GPIO 0, 1, 2... in place, the
 * 13th is refused, an SSR used by a unit cannot be removed, a new unit defaults to the first
 * SSR, and the station saved from the form holds exactly what was edited.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { addAccount, collectConsole, freshPage, pathOf, signIn, test, textOf } from "./_browser.ts";
import { listDevices } from "../../db/devices.ts";

const pins = (page: Page) =>
  page.$$eval(
    "[data-ssr-row] input[name=ssr_gpio]",
    (els) => els.map((el) => Number((el as HTMLInputElement).value)),
  );

test("the station editor adds SSRs on GPIO 0, 1, 2..., keeps its rules, and the station is saved", async ({ portal, browser }) => {
  const t = portal.deps.i18n.t("en");
  const admin = await addAccount(portal, "admin", { language: "en" });
  const page = await freshPage(browser);
  const logs = collectConsole(page);
  await signIn(page, portal, admin.email, admin.password);
  await page.goto(`${portal.url}/admin/devices/station/create`, { waitUntil: "load" });
  // Hydrated: the add buttons edit in place instead of submitting.
  await page.waitForSelector("[data-testid=add-ssr][type=button]");
  let navigations = 0;
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) navigations++;
  });

  await page.type("#name", "Torre Norte");
  await page.type("#serial_number", "TN-0001");
  await page.type("#station_id", "torre_norte");
  await page.type("#city", "Monterrey");
  await page.type("#state", "Nuevo León");
  await page.type("#country", "México");
  await page.type("#mqtt_username", "torre-norte");
  await page.type("#mqtt_password", "torre-pw-0123456789");

  assert.deepEqual(await pins(page), [0], "a new station starts with SSR 1 on GPIO0");
  for (let i = 0; i < 11; i++) await page.click("[data-testid=add-ssr]");
  assert.deepEqual(await pins(page), [...Array(12).keys()]);
  assert.equal(await page.$("[data-testid=ssr-error]"), null);

  await page.click("[data-testid=add-ssr]");
  await page.waitForSelector("[data-testid=ssr-error]");
  assert.equal(
    await textOf(page, "[data-testid=ssr-error]"),
    t("devices.station_form.validation.max_ssrs", { max: 12 }),
  );
  assert.equal((await pins(page)).length, 12, "the 13th SSR is refused");

  await page.click("[data-testid=add-unit]");
  await page.waitForSelector("[data-unit-row=unit_1]");
  assert.equal(
    await page.$eval("[data-unit-row=unit_1] select", (el) => (el as HTMLSelectElement).value),
    "ssr_1",
    "the new unit is on the first SSR",
  );

  await page.click("[data-ssr-row=ssr_1] button");
  assert.equal(
    await textOf(page, "[data-testid=ssr-error]"),
    t("devices.station_form.validation.cannot_remove_ssr"),
  );
  assert.equal((await pins(page)).length, 12, "an SSR used by a unit stays");

  await page.click("[data-ssr-row=ssr_12] button");
  assert.deepEqual(await pins(page), [...Array(11).keys()]);
  assert.equal(await page.$("[data-testid=ssr-error]"), null, "the refusal is cleared");

  // Edit names, a type and the unit's SSR in place.
  await page.$eval("[data-unit-row=unit_1] input[name=unit_name]", (el) => {
    (el as HTMLInputElement).select();
  });
  await page.type("[data-unit-row=unit_1] input[name=unit_name]", "Depto 101");
  await page.select("[data-ssr-row=ssr_2] select[name=ssr_type]", "emergency");
  await page.select("[data-unit-row=unit_1] select[name=unit_ssr]", "ssr_2");
  assert.equal(navigations, 0, "every edit happened in place");

  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=save-station]"),
  ]);
  assert.match(pathOf(page), /^\/admin\/devices\/station\/\d+\/data\?done=created$/);
  assert.equal(
    await textOf(page, ".alert-success"),
    t("devices.station_form.success_create"),
  );

  const [stored] = await listDevices(portal.deps.kv, "station");
  assert.ok(stored);
  assert.equal(stored.name, "Torre Norte");
  assert.equal(stored.config.mqtt.topic_prefix, "station/TN-0001");
  const ssrs = stored.config.station!.ssrs;
  assert.deepEqual(ssrs.map((s) => s.gpio_pin), [...Array(11).keys()]);
  assert.deepEqual(ssrs.map((s) => s.id), [...Array(11).keys()].map((i) => `ssr_${i + 1}`));
  assert.equal(ssrs[1].type, "emergency");
  assert.equal(ssrs[0].name, t("devices.station_form.placeholders.ssr_name", { n: 1 }));
  assert.deepEqual(
    stored.config.station!.units.map((u) => [u.id, u.name, u.ssr_id]),
    [["unit_1", "Depto 101", "ssr_2"]],
  );

  const problems = logs.filter((l) =>
    l.kind === "error" || l.kind === "pageerror" || l.kind === "requestfailed"
  );
  assert.deepEqual(problems, []);
});
