import assert from "node:assert/strict";
import { defaultZone, levelsToFields, parseZoneBody, zoneFormSchema } from "./zone.ts";

const V = "zones.zone_form.validation.";
const messages = (body: unknown) => {
  const r = zoneFormSchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

Deno.test("defaultZone() has the spec defaults: MXN, residential, monthly, winter 11-01 to 03-31", () => {
  const z = defaultZone();
  assert.equal(z.currency, "MXN");
  assert.equal(z.tariff_type, "residential");
  assert.equal(z.billing_type, "monthly");
  assert.deepEqual(
    [z.winter_start_month, z.winter_start_day, z.winter_end_month, z.winter_end_day],
    [11, 1, 3, 31],
  );
  assert.equal(z.price_low_threshold, 150);
  assert.equal(z.price_middle_threshold, 0);
});

Deno.test("levelsToFields() maps levels by position and defaults unused ones", () => {
  assert.deepEqual(
    levelsToFields([{ price: 1.015, threshold: 75 }, { price: 1.239, threshold: 140 }]),
    {
      price_low: 1.015,
      price_low_threshold: 75,
      price_middle: 1.239,
      price_middle_threshold: 140,
      price_high: 0,
      price_high_threshold: 0,
      price_surplus: 0,
      price_surplus_threshold: 0,
    },
  );
  assert.equal(levelsToFields([], "winter_").winter_price_low_threshold, 150);
  assert.throws(() => levelsToFields(Array(5).fill({ price: 1, threshold: 1 })), /saw 5/);
});

Deno.test("parseZoneBody() zeroes industrial fields when industrial_tariff is off", () => {
  const zone = parseZoneBody({
    name: "Casa",
    industrial_tariff: false,
    distribution_enabled: true,
    distribution_price: 60,
    compensation_factor_enabled: true,
    compensation_factor_percentage: 5,
  });
  assert.equal(zone.distribution_enabled, false);
  assert.equal(zone.distribution_price, 0);
  assert.equal(zone.compensation_factor_enabled, false);
  assert.equal(zone.compensation_factor_percentage, 0);
  const industrial = parseZoneBody({
    name: "Planta",
    industrial_tariff: true,
    capacity_price: 401.78,
  });
  assert.equal(industrial.capacity_price, 401.78);
});

Deno.test("parseZoneBody() keeps prices with more than 2 decimals as entered", () => {
  const zone = parseZoneBody({
    name: "GDMTH",
    enable_levels: true,
    levels: [{ price: 1.0222, threshold: 100 }, { price: 1.5867, threshold: 200 }],
  });
  assert.equal(zone.price_low, 1.0222);
  assert.equal(zone.price_middle, 1.5867);
  assert.equal(zone.price_middle_threshold, 200);
});

Deno.test("zoneFormSchema reports the spec messages as locale keys", () => {
  assert.deepEqual(messages({ name: "  " }), [V + "name_required"]);
  assert.deepEqual(messages({ name: "a", price_low: -1 }), [V + "price_per_kwh_negative"]);
  assert.deepEqual(messages({ name: "a", enable_levels: true, levels: [] }), [
    V + "level_required",
  ]);
  assert.deepEqual(
    messages({ name: "a", enable_levels: true, levels: [{ price: -1, threshold: -2 }] }),
    [V + "price_negative", V + "threshold_negative"],
  );
  assert.deepEqual(
    messages({ name: "a", enable_levels: true, levels: Array(5).fill({ price: 1, threshold: 1 }) }),
    [V + "max_levels"],
  );
  assert.deepEqual(messages({ name: "a", base_tariff: -1, tax_percentage: 101 }), [
    V + "base_tariff_negative",
    V + "tax_percentage_range",
  ]);
  assert.deepEqual(
    messages({ name: "a", customer_commission: 101, customer_fee: -1, customer_tax: -1 }),
    [V + "commission_range", V + "monthly_fee_negative", V + "customer_tax_range"],
  );
});

Deno.test("zoneFormSchema checks seasonal fields only when seasonal is on", () => {
  const bad = { name: "a", winter_start_month: 13, winter_end_day: 0, summer_price_low: -1 };
  assert.deepEqual(messages(bad), []);
  assert.deepEqual(messages({ ...bad, seasonal_tariff: true }), [
    V + "month_range",
    V + "day_range",
    V + "summer_price_negative",
  ]);
  assert.deepEqual(
    messages({
      name: "a",
      seasonal_tariff: true,
      enable_levels: true,
      levels: [{ price: 1, threshold: 1 }],
      summer_levels: [{ price: -1, threshold: -1 }],
      winter_levels: [{ price: -1, threshold: -1 }],
    }),
    [
      V + "summer_price_negative",
      V + "summer_threshold_negative",
      V + "winter_price_negative",
      V + "winter_threshold_negative",
    ],
  );
});

Deno.test("zoneFormSchema checks industrial fields only when industrial is on", () => {
  const bad = {
    name: "a",
    distribution_price: -1,
    capacity_price: -1,
    compensation_factor_percentage: 101,
  };
  assert.deepEqual(messages(bad), []);
  assert.deepEqual(messages({ ...bad, industrial_tariff: true }), [
    V + "distribution_price_negative",
    V + "capacity_price_negative",
    V + "percentage_range",
  ]);
});

Deno.test("parseZoneBody() accepts flat level fields of an API body and validates them", () => {
  const body = {
    name: "CFE 1",
    enable_levels: true,
    price_low: 1.015,
    price_low_threshold: 75,
    price_middle: 1.239,
    price_middle_threshold: 140,
    price_high: 3.62,
  };
  const zone = parseZoneBody(body);
  assert.equal(zone.price_middle, 1.239);
  assert.equal(zone.price_high, 3.62);
  assert.equal(zone.price_middle_threshold, 140);
  assert.deepEqual(messages({ ...body, price_middle: -1 }), [V + "price_negative"]);
  assert.deepEqual(
    messages({ ...body, seasonal_tariff: true, winter_price_high_threshold: -5 }),
    [V + "winter_threshold_negative"],
  );
});
