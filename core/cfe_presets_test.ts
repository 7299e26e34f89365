import assert from "node:assert/strict";
import { presetFill } from "./cfe_presets.ts";
import { computeUnitBill } from "./tariff.ts";
import { zoneBodyFromForm, zoneFormSchema } from "./zone.ts";

const zoneOf = (id: string, extra: Record<string, unknown> = {}) =>
  zoneBodyFromForm(zoneFormSchema.parse({ name: id, ...presetFill(id).form, ...extra }));

Deno.test("tariff 1 preset, January 2024, 200 kWh: 433.69 under the spec's per-block rounding", () => {
  const fill = presetFill("cfe_1");
  assert.equal(fill.prices_date, "2024-01");
  assert.equal(fill.rounding, "per_tier");
  assert.deepEqual(fill.missing, []);
  const bill = computeUnitBill(zoneOf("cfe_1"), 200, { period: "2024-01" });
  // 76.125 → 76.13, 80.535 → 80.54, 217.20: 373.87; IVA 59.82. The reference rounds only the
  // subtotal (373.86 + 59.82 = 433.68); the preset declares the spec's rule.
  assert.deepEqual(bill.calculation_details.map((t) => t.tier_cost), [7613, 8054, 21720]);
  assert.equal(bill.energy_cost, 37387);
  assert.equal(bill.tax_cost, 5982);
  assert.equal(bill.total_cost, 43369);
});

Deno.test("tariff 1 preset: a 20 kWh month is billed at the 25 kWh minimum (29.44)", () => {
  const bill = computeUnitBill(zoneOf("cfe_1"), 20, { period: "2024-01" });
  assert.equal(bill.energy_consumption, 20);
  assert.equal(bill.billed_kwh, 25);
  assert.equal(bill.energy_cost, 2538); // 25 × 1.015 = 25.375
  assert.equal(bill.total_cost, 2944);
});

Deno.test("tariff 1 preset, bimonthly with doubled blocks: 400 kWh gives 867.36", () => {
  const zone = zoneOf("cfe_1", { billing_type: "bimonthly", bimonthly_double_blocks: true });
  const bill = computeUnitBill(zone, 400, { period: "2024-01-02" });
  assert.equal(bill.blocks_doubled, true);
  assert.deepEqual(bill.calculation_details.map((t) => [t.kwh, t.tier_cost]), [
    [150, 15225],
    [130, 16107],
    [120, 43440],
  ]);
  assert.equal(bill.tax_cost, 11964);
  assert.equal(bill.total_cost, 86736);
  // Without the setting the monthly blocks apply to the two months as the spec has them.
  const plain = computeUnitBill(zoneOf("cfe_1", { billing_type: "bimonthly" }), 400, {
    period: "2024-01-02",
  });
  assert.equal(plain.blocks_doubled, false);
  assert.deepEqual(plain.calculation_details.map((t) => t.kwh), [75, 65, 260]);
});

Deno.test("presets leave unconfirmed prices empty and ask for them, never invent them", () => {
  const d = presetFill("cfe_1d");
  assert.ok(d.missing.includes("summer_levels.0.price"));
  assert.equal(d.prices_date, null);
  assert.ok(d.form.summer_levels!.every((l) => Number.isNaN(l.price)));
  assert.deepEqual(d.form.summer_levels!.map((l) => l.threshold), [175, 400, 600, 0]);
  assert.equal(d.form.dac_limit_kwh, 1000);
  assert.deepEqual(presetFill("cfe_pdbt").missing, ["price_low"]);
  assert.equal(presetFill("cfe_pdbt").form.fixed_charge_monthly, 62.82);
  // A preset with an empty price does not pass the form until the operator fills it.
  assert.equal(zoneFormSchema.safeParse({ name: "x", ...d.form }).success, false);
  assert.throws(() => presetFill("cfe_9"), RangeError);
});

Deno.test("DAC preset: fixed charge per month and the region's summer and non-summer prices", () => {
  const f = presetFill("cfe_dac", { region: "bc", summer_start_month: 5 });
  assert.equal(f.form.fixed_charge_monthly, 131.3);
  assert.equal(f.form.summer_price_low, 6.213);
  assert.equal(f.form.winter_price_low, 5.337);
  assert.deepEqual(
    [
      f.form.winter_start_month,
      f.form.winter_start_day,
      f.form.winter_end_month,
      f.form.winter_end_day,
    ],
    [11, 1, 4, 30],
  );
  const zone = zoneOf("cfe_dac", { region: undefined, ...f.form });
  // July: summer, 100 kWh × 6.213 + 131.30 fixed = 752.60, IVA 120.42.
  const bill = computeUnitBill(zone, 100, { period: "2023-07" });
  assert.equal(bill.base_tariff, 13130);
  assert.equal(bill.total_cost, 75260 + 12042);
});
