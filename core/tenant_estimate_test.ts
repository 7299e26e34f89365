import assert from "node:assert/strict";
import { estimateBill, fallbackZone, firstPrice } from "./tenant_estimate.ts";
import { defaultZone, type Zone } from "./zone.ts";

/** Industrial, seasonal tiered, winter 11-01..03-31 (wraps the year end), base 40, tax 16 %, compensation 5 %. */
function seasonalZone(): Zone {
  return {
    ...defaultZone("Seasonal"),
    tariff_type: "industrial",
    enable_levels: true,
    seasonal_tariff: true,
    industrial_tariff: true,
    compensation_factor_enabled: true,
    compensation_factor_percentage: 5,
    winter_price_low: 0.8,
    winter_price_low_threshold: 100,
    winter_price_middle: 1.5,
    winter_price_middle_threshold: 200,
    winter_price_high: 2,
    winter_price_high_threshold: 0,
    summer_price_low: 1,
    summer_price_low_threshold: 150,
    summer_price_middle: 2,
    summer_price_middle_threshold: 0,
    base_tariff: 40,
    tax_percentage: 16,
  };
}

Deno.test("estimateBill() without a zone uses 0.12 per kWh in EUR", () => {
  const r = estimateBill(null, 100, "2026-05");
  assert.equal(r.total_cost, 1200);
  assert.equal(r.currency, "EUR");
  assert.equal(fallbackZone().price_low, 0.12);
});

Deno.test("estimateBill() prices January with winter tiers across the year end", () => {
  // 100 × 0.8 = 80.00; 100 × 1.5 = 150.00; 50 × 2 = 100.00 → energy 330.00
  // compensation 5 % = 16.50; tax 16 % of (40 + 330 + 16.50) = 61.84; total 448.34
  assert.partialDeepStrictEqual(estimateBill(seasonalZone(), 250, "2026-01"), {
    season: "winter",
    energy_cost: 33000,
    compensation_cost: 1650,
    base_tariff: 4000,
    tax_cost: 6184,
    total_cost: 44834,
  });
  assert.equal(estimateBill(seasonalZone(), 250, "2026-12").season, "winter");
});

Deno.test("estimateBill() prices July with summer tiers", () => {
  // 150 × 1 = 150; 100 × 2 = 200 → 350; compensation 17.50; tax 16 % of 407.50 = 65.20
  assert.partialDeepStrictEqual(estimateBill(seasonalZone(), 250, "2026-07"), {
    season: "summer",
    energy_cost: 35000,
    compensation_cost: 1750,
    tax_cost: 6520,
    total_cost: 47270,
  });
  assert.equal(firstPrice(seasonalZone(), "2026-07"), 1);
  assert.equal(firstPrice(seasonalZone(), "2026-02"), 0.8);
});

Deno.test("estimateBill() rounds each tier half up to cents and kWh to 3 decimals", () => {
  const zone = { ...defaultZone("Flat"), price_low: 1.015 };
  assert.equal(estimateBill(zone, 75, "2026-03").total_cost, 7613); // 76.125 → 76.13
  assert.equal(estimateBill(zone, 75.0004, "2026-03").energy_consumption, 75);
});
