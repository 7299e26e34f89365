/**
 * The zone form's additions without JavaScript: a CFE preset fills the form with its note and
 * leaves unconfirmed prices empty (refused until entered), and editing offers new prices from a
 * month beside the correction of the current ones.
 */
import assert from "node:assert/strict";
import { call, type TestApp, withAdminApp } from "./_helpers.ts";
import { listZones, zoneVersions } from "../db/zones.ts";

const withApp = (fn: (t: TestApp, cookie: string) => Promise<void>) =>
  withAdminApp((t, token) => fn(t, `token=${token}`), { language: "en" });

const inputValue = (page: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page)?.[1];

Deno.test("a preset fills the form with its date and source and leaves unconfirmed prices empty", async () => {
  await withApp(async (t, cookie) => {
    const one = await (await call(t, "GET", "/admin/zones/create?preset=cfe_1", { cookie })).text();
    assert.match(one, /data-testid="preset-note"/);
    assert.match(one, /Prices of 2024-01\. Sources: dedinero\.com\.mx \(2024-01-04\)/);
    assert.match(one, /Every price is confirmed\./);
    assert.match(one, /each block to the cent, then the tax/);
    assert.equal(inputValue(one, "minimum_monthly_kwh"), "25");
    assert.equal(inputValue(one, "dac_limit_kwh"), "250");
    assert.equal(inputValue(one, "tariff_preset"), "cfe_1");

    const d = await (await call(t, "GET", "/admin/zones/create?preset=cfe_1d", { cookie })).text();
    assert.match(d, /Prices that could not be confirmed are left empty/);
    // The island's first summer price is empty, its block limit filled.
    assert.match(d, /&quot;summer_price&quot;:&quot;&quot;|"summer_price":""/);
    assert.match(d, /&quot;summer_threshold&quot;:&quot;175&quot;|"summer_threshold":"175"/);

    // Posted with the preset's empty price: refused with the request to enter it.
    const res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: {
        name: "Mexicali",
        currency: "MXN",
        tariff_type: "residential",
        billing_type: "monthly",
        pricing_mode: "tiered",
        prev_mode: "tiered",
        level_price_0: "",
        level_threshold_0: "75",
        tariff_preset: "cfe_1d",
        tax_percentage: "16",
      },
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /This preset has no confirmed price here: enter it/);
    assert.equal((await listZones(t.deps.kv)).length, 0);
    // An unknown preset is the blank form.
    const blank = await (await call(t, "GET", "/admin/zones/create?preset=x", { cookie })).text();
    assert.doesNotMatch(blank, /data-testid="preset-note"/);
  });
});

Deno.test("editing a zone: new prices from a month need the month; a correction needs none", async () => {
  await withApp(async (t, cookie) => {
    // Only what the form needs: the other fields take their defaults.
    const form = { name: "Monterrey", pricing_mode: "basic", price_low: "1.5" };
    const made = await call(t, "POST", "/admin/zones/create", { cookie, form });
    assert.equal(made.status, 303);
    await made.body?.cancel();
    const [zone] = await listZones(t.deps.kv);
    const edit = await (await call(t, "GET", `/admin/zones/${zone.id}/edit`, { cookie })).text();
    assert.match(edit, /New prices from a month/);
    assert.match(edit, /Correct the current prices/);
    const path = `/admin/zones/${zone.id}/edit`;
    const bad = await call(t, "POST", path, {
      cookie,
      form: { ...form, price_low: "3", price_change: "new", effective_from: "" },
    });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /Choose the month the new prices apply from/);
    assert.equal((await zoneVersions(t.deps.kv, zone.id)).length, 1);
    const later = await call(t, "POST", path, {
      cookie,
      form: { ...form, price_low: "3", price_change: "new", effective_from: "2099-01" },
    });
    assert.equal(later.status, 303);
    await later.body?.cancel();
    const fix = await call(t, "POST", path, { cookie, form: { ...form, price_low: "1.75" } });
    assert.equal(fix.status, 303);
    await fix.body?.cancel();
    const versions = await zoneVersions(t.deps.kv, zone.id);
    assert.deepEqual(versions.map((v) => [v.applies_from, v.zone.price_low]), [
      [null, 1.75],
      ["2099-01-01", 3],
    ]);
    const detail = await (await call(t, "GET", `/admin/zones/${zone.id}`, { cookie })).text();
    assert.match(detail, /data-applies-from="2099-01-01"/);
    assert.match(detail, /Scheduled/);
  });
});
