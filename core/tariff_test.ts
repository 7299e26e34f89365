import assert from "node:assert/strict";
import { defaultZone, type Zone, zoneBodyFromForm } from "./zone.ts";
import {
  buildTiers,
  computeUnitBill,
  isWinterDay,
  percentOfCents,
  toCents,
  toDecimal,
} from "./tariff.ts";

/** CFE tariff 1, January 2024 prices: 75 kWh at 1.015, next 65 at 1.239, surplus at 3.620; IVA 16 %. */
const cfe1 = (): Zone =>
  zoneBodyFromForm({
    name: "CFE 1",
    enable_levels: true,
    tax_percentage: 16,
    levels: [{ price: 1.015, threshold: 75 }, { price: 1.239, threshold: 140 }, {
      price: 3.62,
      threshold: 0,
    }],
  });

Deno.test("toCents() rounds half up exactly despite binary floating point", () => {
  assert.equal(toCents(76.125), 7613);
  assert.equal(toCents(80.535), 8054);
  assert.equal(toCents(1.005), 101);
  assert.equal(toCents(0.004), 0);
  assert.equal(toCents(2.675), 268);
});

Deno.test("toDecimal() reads exponent notation exactly", () => {
  assert.deepEqual(toDecimal(1e-7), { n: 1n, s: 7 });
  assert.deepEqual(toDecimal(1.5e21), { n: 1500000000000000000000n, s: 0 });
  assert.throws(() => toDecimal(NaN), RangeError);
});

Deno.test("percentOfCents() rounds half up to cents", () => {
  assert.equal(percentOfCents(37387, 16), 5982); // 5981.92
  assert.equal(percentOfCents(50, 1), 1); // 0.5 → 1
  assert.equal(percentOfCents(12345, 0), 0);
  assert.equal(percentOfCents(1000, 0.1), 1);
});

Deno.test("computeUnitBill() prices CFE tariff 1 blocks incrementally, each tier rounded to cents", () => {
  const bill = computeUnitBill(cfe1(), 200);
  assert.deepEqual(bill.calculation_details.map((d) => [d.level, d.kwh, d.tier_cost]), [
    ["low", 75, 7613], // 76.125 → 76.13
    ["middle", 65, 8054], // 80.535 → 80.54
    ["high", 60, 21720],
  ]);
  assert.equal(bill.energy_cost, 37387);
  assert.equal(bill.tax_cost, 5982);
  assert.equal(bill.total_cost, 43369);
  assert.equal(bill.pricing_mode, "tiered");
  assert.equal(bill.season, null);
  assert.equal(bill.calculation_details[2].to_kwh, null);
});

Deno.test("computeUnitBill() charges only the first tier at exactly its threshold", () => {
  const bill = computeUnitBill(cfe1(), 75);
  assert.equal(bill.calculation_details.length, 1);
  assert.equal(bill.energy_cost, 7613);
  const next = computeUnitBill(cfe1(), 75.001);
  assert.equal(next.calculation_details.length, 2);
  assert.equal(next.calculation_details[1].kwh, 0.001);
  assert.equal(next.energy_cost, 7613);
});

Deno.test("computeUnitBill() at the middle threshold fills the first two tiers only", () => {
  const bill = computeUnitBill(cfe1(), 140);
  assert.deepEqual(bill.calculation_details.map((d) => d.kwh), [75, 65]);
  assert.equal(bill.energy_cost, 7613 + 8054);
});

Deno.test("computeUnitBill() with zero consumption charges base tariff and its tax", () => {
  const zone = { ...cfe1(), base_tariff: 131.3 };
  const bill = computeUnitBill(zone, 0);
  assert.equal(bill.energy_cost, 0);
  assert.equal(bill.base_tariff, 13130);
  assert.equal(bill.tax_cost, 2101); // 2100.8
  assert.equal(bill.total_cost, 15231);
});

Deno.test("computeUnitBill() basic mode uses one flat low price", () => {
  const zone = { ...defaultZone("flat"), price_low: 2.5, price_middle: 9, price_low_threshold: 10 };
  const bill = computeUnitBill(zone, 123.4);
  assert.equal(bill.pricing_mode, "basic");
  assert.equal(bill.calculation_details.length, 1);
  assert.equal(bill.energy_cost, 30850);
});

Deno.test("buildTiers() drops trailing unused levels and leaves the last open-ended", () => {
  const tiers = buildTiers({ ...cfe1(), price_high: 0, price_high_threshold: 0 }, null);
  assert.deepEqual(tiers.map((t) => [t.level, t.to === null]), [["low", false], [
    "middle",
    true,
  ]]);
});

Deno.test("buildTiers() uses all four levels, surplus above the high threshold", () => {
  const zone = zoneBodyFromForm({
    name: "1C",
    enable_levels: true,
    levels: [{ price: 1, threshold: 150 }, { price: 2, threshold: 300 }, {
      price: 3,
      threshold: 450,
    }, { price: 4, threshold: 0 }],
  });
  const bill = computeUnitBill(zone, 500);
  assert.deepEqual(bill.calculation_details.map((d) => [d.level, d.kwh]), [
    ["low", 150],
    ["middle", 150],
    ["high", 150],
    ["surplus", 50],
  ]);
  assert.equal(bill.energy_cost, (150 + 300 + 450 + 200) * 100);
});

const seasonal = (): Zone =>
  zoneBodyFromForm({
    name: "1D",
    enable_levels: true,
    seasonal_tariff: true,
    summer_levels: [{ price: 0.921, threshold: 175 }, { price: 1.1, threshold: 400 }, {
      price: 3,
      threshold: 0,
    }],
    winter_levels: [{ price: 1.0, threshold: 75 }, { price: 1.2, threshold: 200 }, {
      price: 3.5,
      threshold: 0,
    }],
  });

Deno.test("isWinterDay() handles the default window wrapping the new year (11-01 to 03-31)", () => {
  const zone = seasonal();
  for (const [m, d] of [[11, 1], [12, 31], [1, 1], [3, 31]]) {
    assert.equal(isWinterDay(zone, m, d), true, `${m}-${d}`);
  }
  for (const [m, d] of [[10, 31], [4, 1], [7, 15]]) {
    assert.equal(isWinterDay(zone, m, d), false, `${m}-${d}`);
  }
});

Deno.test("isWinterDay() handles a window inside one year", () => {
  const zone = {
    ...seasonal(),
    winter_start_month: 6,
    winter_start_day: 1,
    winter_end_month: 8,
    winter_end_day: 31,
  };
  assert.equal(isWinterDay(zone, 6, 1), true);
  assert.equal(isWinterDay(zone, 8, 31), true);
  assert.equal(isWinterDay(zone, 5, 31), false);
  assert.equal(isWinterDay(zone, 1, 1), false);
});

Deno.test("computeUnitBill() seasonal tiered uses winter levels in January and summer in July", () => {
  const winter = computeUnitBill(seasonal(), 100, { period: "2026-01" });
  assert.equal(winter.season, "winter");
  assert.equal(winter.winter_days, 31);
  assert.equal(winter.energy_cost, 7500 + 3000);
  const summer = computeUnitBill(seasonal(), 100, { period: "2026-07" });
  assert.equal(summer.season, "summer");
  assert.equal(summer.energy_cost, 9210);
  assert.equal(summer.pricing_mode, "seasonal_tiered");
});

Deno.test("computeUnitBill() prices a period across a season change by the majority of days", () => {
  const bill = computeUnitBill(seasonal(), 100, { period: "2026-03-04" });
  assert.equal(bill.winter_days, 31);
  assert.equal(bill.summer_days, 30);
  assert.equal(bill.season, "winter");
  const nd = computeUnitBill(seasonal(), 100, { period: "2026-09-10" });
  assert.equal(nd.season, "summer");
});

Deno.test("computeUnitBill() breaks a tie of season days by the last day's season", () => {
  const zone = { ...seasonal(), winter_start_month: 11, winter_start_day: 16 };
  const bill = computeUnitBill(zone, 10, { period: "2026-11" });
  assert.equal(bill.winter_days, 15);
  assert.equal(bill.summer_days, 15);
  assert.equal(bill.season, "winter");
});

Deno.test("computeUnitBill() seasonal without levels uses the flat winter or summer price", () => {
  const zone = {
    ...defaultZone("s"),
    seasonal_tariff: true,
    winter_price_low: 1,
    summer_price_low: 2,
  };
  assert.equal(computeUnitBill(zone, 10, { period: "2026-12" }).energy_cost, 1000);
  assert.equal(computeUnitBill(zone, 10, { season: "summer" }).energy_cost, 2000);
  assert.equal(computeUnitBill(zone, 10, { period: "2026-05-06" }).pricing_mode, "seasonal");
});

Deno.test("computeUnitBill() rejects bad input with the value seen", () => {
  assert.throws(() => computeUnitBill(cfe1(), -1), /saw -1/);
  assert.throws(() => computeUnitBill(cfe1(), NaN), RangeError);
  assert.throws(() => computeUnitBill(cfe1(), "5" as unknown as number), TypeError);
  assert.throws(() => computeUnitBill(seasonal(), 5), TypeError);
  assert.throws(() => computeUnitBill(seasonal(), 5, { period: "2026-02-03" }), RangeError);
});

/** GDMTH-like, Golfo Norte Jan 2026: fixed 502.03, intermedia 1.5867 $/kWh, 2 % compensation, IVA 16 %. */
const gdmth = (compensation = true): Zone =>
  zoneBodyFromForm({
    name: "GDMTH Golfo Norte",
    tariff_type: "industrial",
    industrial_tariff: true,
    price_low: 1.5867,
    base_tariff: 502.03,
    tax_percentage: 16,
    distribution_enabled: true,
    distribution_price: 57.74,
    capacity_enabled: true,
    capacity_price: 401.78,
    compensation_factor_enabled: compensation,
    compensation_factor_percentage: 2,
  });

Deno.test("computeUnitBill() GDMTH-like industrial bill adds compensation and taxes it", () => {
  const bill = computeUnitBill(gdmth(), 10000);
  assert.equal(bill.energy_cost, 1586700);
  assert.equal(bill.base_tariff, 50203);
  assert.equal(bill.compensation_cost, 31734);
  assert.equal(bill.tax_cost, 266982); // 16 % of 16686.37 = 2669.8192
  assert.equal(bill.total_cost, 1935619);
});

Deno.test("computeUnitBill() charges no compensation unless industrial with compensation enabled", () => {
  assert.equal(computeUnitBill(gdmth(false), 10000).compensation_cost, 0);
  const notIndustrial = {
    ...gdmth(),
    industrial_tariff: false,
  };
  assert.equal(computeUnitBill(notIndustrial, 10000).compensation_cost, 0);
});

/** Seeded PRNG (mulberry32) so a failing property is reproducible. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomZone(r: () => number): Zone {
  const n = 1 + Math.floor(r() * 4);
  let threshold = 0;
  const levels = Array.from({ length: n }, () => {
    threshold += Math.floor(r() * 300);
    return { price: Math.round(r() * 5000) / 1000, threshold };
  });
  return zoneBodyFromForm({
    name: "random",
    enable_levels: r() < 0.8,
    price_low: Math.round(r() * 5000) / 1000,
    levels,
    industrial_tariff: r() < 0.5,
    compensation_factor_enabled: true,
    compensation_factor_percentage: Math.round(r() * 1000) / 10,
    base_tariff: Math.round(r() * 50000) / 100,
    tax_percentage: Math.round(r() * 1000) / 10,
  });
}

Deno.test("computeUnitBill() cost never decreases when consumption grows (random zones)", () => {
  const r = rng(42);
  for (let i = 0; i < 2000; i++) {
    const zone = randomZone(r);
    const a = Math.round(r() * 2_000_000) / 1000;
    const b = a + Math.round(r() * 500_000) / 1000;
    const billA = computeUnitBill(zone, a);
    const billB = computeUnitBill(zone, b);
    assert.ok(billB.energy_cost >= billA.energy_cost, `${a} → ${b} kWh`);
    assert.ok(billB.total_cost >= billA.total_cost, `${a} → ${b} kWh`);
  }
});

Deno.test("computeUnitBill() cents add up: tiers sum to energy, parts sum to total (random zones)", () => {
  const r = rng(7);
  for (let i = 0; i < 2000; i++) {
    const zone = randomZone(r);
    const kwh = Math.round(r() * 3_000_000) / 1000;
    const bill = computeUnitBill(zone, kwh);
    for (const v of [bill.energy_cost, bill.tax_cost, bill.total_cost, bill.compensation_cost]) {
      assert.ok(Number.isSafeInteger(v) && v >= 0);
    }
    assert.equal(bill.calculation_details.reduce((s, d) => s + d.tier_cost, 0), bill.energy_cost);
    const kwhSum = bill.calculation_details.reduce((s, d) => s + d.kwh, 0);
    assert.ok(Math.abs(kwhSum - kwh) < 1e-6, `${kwhSum} vs ${kwh}`);
    assert.equal(
      bill.total_cost,
      bill.base_tariff + bill.energy_cost + bill.compensation_cost + bill.tax_cost,
    );
  }
});
