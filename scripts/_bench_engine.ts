/**
 * The tariff engine alone, for `deno task bench:billing`: unit and station bills per second
 * over a mix of zones (basic, CFE tariff 1, seasonal tiered, commercial with industrial
 * components) and energies.
 */
import type { Zone } from "../core/zone.ts";
import { defaultZone } from "../core/zone.ts";
import { computeUnitBill } from "../core/tariff.ts";
import { computeCustomerBill } from "../core/customer_bill.ts";
import { demoZoneBody } from "../services/demo_devices.ts";

/** Bills per second of the tariff engine over a mix of zones and energies. */
export function engine(): { unit_bills_per_s: number; customer_bills_per_s: number } {
  const base = defaultZone("Bench");
  const zones: Zone[] = [
    { ...base, base_tariff: 40, tax_percentage: 16, price_low: 2.5 },
    demoZoneBody("CFE 1"),
    {
      ...base,
      enable_levels: true,
      seasonal_tariff: true,
      summer_price_low: 0.8,
      summer_price_low_threshold: 300,
      summer_price_middle: 1.1,
      summer_price_middle_threshold: 900,
      summer_price_high: 3.2,
      winter_price_low: 0.9,
      winter_price_low_threshold: 75,
      winter_price_middle: 1.2,
      winter_price_middle_threshold: 200,
      winter_price_high: 3.4,
      tax_percentage: 16,
    },
    {
      ...base,
      tariff_type: "commercial",
      price_low: 4.1,
      distribution_enabled: true,
      distribution_price: 0.5,
      capacity_enabled: true,
      capacity_price: 120,
      compensation_factor_enabled: true,
      compensation_factor_percentage: 3,
      tax_percentage: 16,
      customer_commission: 5,
      customer_fee: 50,
      customer_tax: 16,
    },
  ];
  const periods = ["2026-01", "2026-06", "2026-11", "2026-03-04"];
  const n = 200_000;
  let sink = 0;
  const bills = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const b = computeUnitBill(zones[i % 4], (i * 37) % 1200 + 0.125, { period: periods[i % 4] });
    sink += b.total_cost;
    if (i < 30_000) bills.push(b);
  }
  const unitS = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const stations = 100_000;
  for (let i = 0; i < stations; i++) {
    const k = (i * 3) % (bills.length - 3);
    sink += computeCustomerBill(zones[i % 4], bills.slice(k, k + 3)).total_amount;
  }
  const custS = (performance.now() - t1) / 1000;
  if (sink === 0) throw new Error("the engine computed nothing");
  return {
    unit_bills_per_s: Math.round(n / unitS),
    customer_bills_per_s: Math.round(stations / custS),
  };
}
