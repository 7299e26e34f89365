/**
 * The zone form's GDMTH presets per CFE division (issue 34): the reference's January 2026
 * prices fill the business tariff card (band prices, distribution and capacity per kW, the
 * fixed charge as base tariff), with the note saying the band hours are the Región Central's;
 * the Golfo Norte preset is exactly the tariff the business bill tests reproduce a real bill with.
 */
import assert from "node:assert/strict";
import { call, type TestApp, withAdminApp } from "./_helpers.ts";
import { CFE_PRESETS, presetFill } from "../core/cfe_presets.ts";
import { GOLFO_NORTE_2026 } from "./_business_zone.ts";

const withApp = (fn: (t: TestApp, cookie: string) => Promise<void>) =>
  withAdminApp((t, token) => fn(t, `token=${token}`), { language: "en" });

const inputValue = (page: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page)?.[1];

Deno.test("the Golfo Norte GDMTH preset is the reference's January 2026 tariff", () => {
  const fill = presetFill("cfe_gdmth_golfo_norte");
  const { enable_levels: _, power_factor_enabled: __, ...expected } = {
    ...GOLFO_NORTE_2026,
    enable_levels: false,
    power_factor_enabled: true,
  };
  for (const [k, v] of Object.entries(expected)) {
    assert.equal((fill.form as Record<string, unknown>)[k], v, k);
  }
  assert.equal(fill.form.power_factor_enabled, true);
  assert.deepEqual(fill.missing, []);
  assert.equal(fill.prices_date, "2026-01");
  // Nine divisions, each with every price.
  const gdmth = CFE_PRESETS.filter((id) => id.startsWith("cfe_gdmth_"));
  assert.equal(gdmth.length, 9);
  for (const id of gdmth) {
    const f = presetFill(id).form;
    for (const k of ["price_base", "price_intermedia", "price_punta", "capacity_price"] as const) {
      assert.ok(Number(f[k]) > 0, `${id} ${k}`);
    }
  }
});

Deno.test("a GDMTH division preset fills the zone form's business card, and says whose band hours", async () => {
  await withApp(async (t, cookie) => {
    const page = await (await call(
      t,
      "GET",
      "/admin/zones/create?preset=cfe_gdmth_valle_de_mexico_centro",
      { cookie },
    )).text();
    assert.match(page, /CFE GDMTH · Valle de México Centro \(Cuauhtémoc\)/);
    assert.match(page, /the band hours are the Región Central&#x27;s/);
    assert.equal(inputValue(page, "price_punta"), "2.1383");
    assert.equal(inputValue(page, "price_base"), "1.109");
    assert.equal(inputValue(page, "capacity_floor_percentage"), "70");
    assert.equal(inputValue(page, "tariff_preset"), "cfe_gdmth_valle_de_mexico_centro");
    assert.match(page, /value="cfe_gdmth_jalisco"/);
  });
});
