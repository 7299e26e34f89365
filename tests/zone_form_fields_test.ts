/**
 * The zone form's numbers as spec 001 section 9 gives them: a new zone's first level threshold
 * shows 100 (150 is only the fallback when none is submitted), thresholds step 1; prices and
 * percentages are text fields with the decimal keypad (a typed "1,5" reaches the server as typed,
 * issue 27's number entry, so the 0.01 and 0.1 steps cannot apply to them); and a zone that cannot be read shows "Error loading data: {message}"
 * with the way back, not a server error.
 */
import assert from "node:assert/strict";
import { call, withAdminApp } from "./_helpers.ts";
import { createZone } from "../db/zones.ts";
import { tieredZone } from "./_billing_world.ts";
import { fieldStep } from "../core/zone_levels.ts";

/** The `step` of the input named `name` in `html`, or its type and keypad when it has none. */
function stepOf(html: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  if (!tag) return undefined;
  const step = /step="([^"]+)"/.exec(tag)?.[1];
  if (step) return step;
  return `${/type="([^"]+)"/.exec(tag)?.[1]}/${/inputMode="([^"]+)"/i.exec(tag)?.[1]}`;
}

Deno.test("zone form: first threshold 100, thresholds step 1, prices and percentages decimal text fields", () =>
  withAdminApp(async (t, token) => {
    const blank = await (await call(t, "GET", "/admin/zones/create", { token })).text();
    const props = /"levels":\[\{[^\]]*\]/.exec(blank)?.[0] ?? "";
    assert.match(props, /^"levels":\[\{"price":"0","threshold":"100"/);
    assert.doesNotMatch(props, /150/);
    for (const name of ["tax_percentage", "customer_commission", "customer_tax"]) {
      assert.equal(stepOf(blank, name), "text/decimal", name);
    }
    for (const name of ["price_low", "base_tariff", "customer_fee"]) {
      assert.equal(stepOf(blank, name), "text/decimal", name);
    }
    // The tiered levels (the form without JavaScript, after choosing the mode).
    const tiered = await (await call(t, "POST", "/admin/zones/create", {
      token,
      form: { action: "mode", name: "Z", pricing_mode: "tiered", prev_mode: "basic" },
    })).text();
    assert.equal(stepOf(tiered, "level_threshold_0"), "1");
    assert.equal(stepOf(tiered, "level_price_0"), "text/decimal");
    // The island's own inputs follow the same rule.
    assert.equal(fieldStep("level_threshold_3"), "1");
    assert.equal(fieldStep("level_summer_price_1"), "0.01");
    assert.equal(fieldStep("compensation_factor_percentage"), "0.1");
    assert.equal(fieldStep("winter_start_day"), "1");
  }, { language: "en" }));

Deno.test("zone form: a zone that cannot be read shows 'Error loading data: {message}' and Back", () =>
  withAdminApp(async (t, token) => {
    const zone = await createZone(t.deps.kv, tieredZone(), Date.now());
    const kv = t.deps.kv;
    const get = kv.get.bind(kv);
    kv.get = ((key: Deno.KvKey, o?: unknown) => {
      if (key[0] === "zones") return Promise.reject(new Error("the store did not answer"));
      return get(key, o as { consistency?: Deno.KvConsistencyLevel });
    }) as typeof kv.get;
    const res = await call(t, "GET", `/admin/zones/${zone.id}/edit`, { token });
    assert.equal(res.status, 503);
    const html = await res.text();
    assert.match(html, /data-testid="load-failed"/);
    // The store's own words stay in the log; the reader gets the catalogue's retry text.
    assert.match(html, /Error loading data: The page could not be shown/);
    assert.doesNotMatch(html, /the store did not answer/);
    assert.match(html, /href="\/admin\/pricing"[^>]*>Back to Pricing/);
  }, { language: "en" }));
