import assert from "node:assert/strict";
import { defaultZone, type Zone } from "./zone.ts";
import { computeVersionedBill, type ZoneVersion } from "./zone_versions.ts";
import { computePartBill, type PartPeriod } from "./part_bill.ts";
import { dayStart } from "./local_time.ts";
import { periodParts } from "./tenancy.ts";

const OFFSET = -360;
const at = (date: string) => dayStart(date, OFFSET);
const period = (text: string, from: string, to: string): PartPeriod => ({
  text,
  from: at(from),
  to: at(to),
  offsetMinutes: OFFSET,
});
const one = (zone: Partial<Zone>): ZoneVersion[] => [
  { applies_from: null, zone: { ...defaultZone("Z"), ...zone } },
];
const amounts = (b: ReturnType<typeof computePartBill>) => ({
  energy_cost: b.energy_cost,
  base_tariff: b.base_tariff,
  tax_cost: b.tax_cost,
  total_cost: b.total_cost,
});

Deno.test("a move on the 16th of a 30-day month: base tariff halved, each tenant's own energy", () => {
  const zone = one({ price_low: 2.5, base_tariff: 93, tax_percentage: 16 });
  const sep = period("2026-09", "2026-09-01", "2026-10-01");
  const a = computePartBill(zone, 120, sep, { from: sep.from, to: at("2026-09-16") });
  const b = computePartBill(zone, 80, sep, { from: at("2026-09-16"), to: sep.to });
  // A: 120 × 2.50 = 300.00; 93.00 × 15/30 = 46.50; 16 % of 346.50 = 55.44; 401.94.
  assert.deepEqual(amounts(a), {
    energy_cost: 30000,
    base_tariff: 4650,
    tax_cost: 5544,
    total_cost: 40194,
  });
  // B: 80 × 2.50 = 200.00; 46.50; 16 % of 246.50 = 39.44; 285.94.
  assert.deepEqual(amounts(b), {
    energy_cost: 20000,
    base_tariff: 4650,
    tax_cost: 3944,
    total_cost: 28594,
  });
  assert.deepEqual(a.share, { from: sep.from, to: at("2026-09-16"), days: 15, period_days: 30 });
});

Deno.test("a move on the 16th of a 31-day month: 15 and 16 days, base tariff parts add up to the whole", () => {
  const zone = one({ price_low: 1, base_tariff: 100 });
  const oct = period("2026-10", "2026-10-01", "2026-11-01");
  const parts = periodParts([
    {
      tenant_id: 1,
      from: at("2026-01-01"),
      to: at("2026-10-16"),
      reading_from_kwh: null,
      reading_to_kwh: null,
    },
    {
      tenant_id: 2,
      from: at("2026-10-16"),
      to: null,
      reading_from_kwh: null,
      reading_to_kwh: null,
    },
  ], oct);
  assert.deepEqual(parts.map((p) => [p.tenant_id, p.from, p.to]), [
    [1, oct.from, at("2026-10-16")],
    [2, at("2026-10-16"), oct.to],
  ]);
  const [a, b] = parts.map((p) => computePartBill(zone, 10, oct, p));
  // 100.00 × 15/31 = 48.387 → 48.39; the rest, 51.61 (100.00 × 16/31 = 51.613).
  assert.equal(a.base_tariff, 4839);
  assert.equal(b.base_tariff, 5161);
  assert.equal(a.base_tariff + b.base_tariff, 10000);
  assert.deepEqual([a.share?.days, b.share?.days], [15, 16]);
});

Deno.test("tiered zone: the block limits are prorated by the tenancy's days, to the Wh", () => {
  const zone = one({
    enable_levels: true,
    price_low: 1,
    price_low_threshold: 150,
    price_middle: 2,
    price_middle_threshold: 0,
  });
  const oct = period("2026-10", "2026-10-01", "2026-11-01");
  const a = computePartBill(zone, 100, oct, { from: oct.from, to: at("2026-10-16") });
  // Low block 150 × 15/31 = 72.581 kWh at 1.00 = 72.58; the other 27.419 kWh at 2.00 = 54.84.
  assert.deepEqual(
    a.calculation_details.map((t) => [t.level, t.from_kwh, t.to_kwh, t.kwh, t.tier_cost]),
    [["low", 0, 72.581, 72.581, 7258], ["middle", 72.581, null, 27.419, 5484]],
  );
  assert.equal(a.energy_cost, 12742);
});

Deno.test("bimonthly zone: fixed charge and minimum consumption prorated over the 61 days", () => {
  const zone = one({
    billing_type: "bimonthly",
    price_low: 1,
    fixed_charge_monthly: 50,
    minimum_monthly_kwh: 100,
  });
  const sepOct = period("2026-09-10", "2026-09-01", "2026-11-01");
  const a = computePartBill(zone, 50, sepOct, { from: sepOct.from, to: at("2026-10-01") });
  const b = computePartBill(zone, 150, sepOct, { from: at("2026-10-01"), to: sepOct.to });
  // Fixed charge 2 × 50.00 = 100.00: 30/61 → 49.18, the rest 50.82.
  assert.deepEqual([a.fixed_charge, b.fixed_charge], [4918, 5082]);
  // Minimum 200 kWh × 30/61 = 98.361 kWh billed in place of A's 50 kWh: 98.36 + 49.18.
  assert.equal(a.minimum_kwh, 98.361);
  assert.equal(a.billed_kwh, 98.361);
  assert.equal(a.total_cost, 9836 + 4918);
  // B used 150 kWh, above its minimum of 200 × 31/61 = 101.639 kWh: 150.00 + 50.82.
  assert.equal(b.minimum_kwh, 101.639);
  assert.equal(b.total_cost, 15000 + 5082);
});

Deno.test("a part that is the whole period bills exactly as computeVersionedBill", () => {
  const versions: ZoneVersion[] = [
    { applies_from: null, zone: { ...defaultZone("Z"), price_low: 1, base_tariff: 93 } },
    { applies_from: "2026-10-15", zone: { ...defaultZone("Z"), price_low: 2, base_tariff: 93 } },
  ];
  const oct = period("2026-10", "2026-10-01", "2026-11-01");
  const whole = computePartBill(versions, 310, oct, oct);
  const { share, ...bill } = whole;
  assert.equal(share, null);
  assert.deepEqual(bill, computeVersionedBill(versions, 310, "2026-10"));
});

Deno.test("a part across a price change: each version prices its time share of the part", () => {
  const versions: ZoneVersion[] = [
    { applies_from: null, zone: { ...defaultZone("Z"), price_low: 1 } },
    { applies_from: "2026-10-21", zone: { ...defaultZone("Z"), price_low: 2 } },
  ];
  const oct = period("2026-10", "2026-10-01", "2026-11-01");
  // From the 16th: 5 days at 1.00 and 11 days at 2.00; 160 kWh split 50 / 110.
  const b = computePartBill(versions, 160, oct, { from: at("2026-10-16"), to: oct.to });
  assert.deepEqual(b.calculation_details.map((t) => [t.kwh, t.tier_cost]), [[50, 5000], [
    110,
    22000,
  ]]);
  assert.equal(b.total_cost, 27000);
  assert.throws(
    () => computePartBill(versions, 1, oct, { from: oct.from - 1, to: oct.to }),
    RangeError,
  );
});
