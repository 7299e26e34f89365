import assert from "node:assert/strict";
import { computeBusinessBill } from "./business_bill.ts";
import { periodDemand } from "./demand.ts";
import { bandSchedule, energyByBand } from "./tou.ts";
import { defaultZone, type Zone } from "./zone.ts";
import { at, GOLFO_NORTE_2026 } from "../tests/_business_zone.ts";

const central = bandSchedule("cfe_central")!;
const MX = -360;

/** GDMTH Golfo Norte (Monterrey), the reference's January 2026 prices. */
const golfoNorte: Zone = { ...defaultZone("GDMTH Golfo Norte"), ...GOLFO_NORTE_2026 };

/** January 2026 in 15-minute averages: 400 kW flat, 662 kW once in punta, 700 kW on a Sunday. */
function january(): { ts: number; value: number }[] {
  const start = at("2026-01-01T00:00");
  const punta = at("2026-01-14T19:00");
  const sunday = at("2026-01-04T12:00");
  return Array.from({ length: 31 * 96 }, (_, i) => {
    const ts = start + i * 900_000;
    return { ts, value: ts === punta ? 662 : ts === sunday ? 700 : 400 };
  });
}

function usageOf(power: { ts: number; value: number }[], apparent: number | null) {
  const energy = power.map((p) => ({ ts: p.ts, value: p.value / 4 }));
  const demand = periodDemand(central, power, MX);
  return {
    bands: energyByBand(central, energy, MX),
    demand,
    year_max_kw: demand.max.kw,
    apparent_kvah: apparent,
  };
}

Deno.test("a GDMTH month reproduces the reference bill's capacity charge to the cent", () => {
  const bill = computeBusinessBill(golfoNorte, usageOf(january(), null), "2026-01");
  const b = bill.business;
  // Reference §3.3: punta demand 662 kW, capacity charged $265,978.36 = 662 × 401.78.
  assert.deepEqual(b.capacity, { kw: 662, price: 401.78, cost: 26_597_836 });
  assert.deepEqual(b.demand.punta, {
    kw: 662,
    at: at("2026-01-14T19:00"),
    local: "2026-01-14 19:00",
  });
  // Distribution on the month's highest 15-minute demand, a Sunday's (no punta then).
  assert.deepEqual(b.distribution, { kw: 700, price: 57.74, cost: 4_041_800 });
  assert.deepEqual(b.demand.max, {
    kw: 700,
    at: at("2026-01-04T12:00"),
    local: "2026-01-04 12:00",
  });
  // Hours of January 2026 (21 weekdays, 5 Saturdays, 4 Sundays and New Year's Day):
  // base 256 h, intermedia 394 h, punta 94 h at 400 kW, plus each peak's extra quarter hour.
  assert.deepEqual(b.bands, {
    base: { kwh: 102_475, price: 1.0222, cost: 10_474_995 }, // 104,749.945 → .95
    intermedia: { kwh: 157_600, price: 1.5867, cost: 25_006_392 },
    punta: { kwh: 37_665.5, price: 1.7219, cost: 6_485_622 },
  });
  assert.equal(bill.energy_consumption, 297_740.5);
  assert.equal(bill.energy_cost, 41_967_009);
  assert.equal(bill.base_tariff, 50_203);
  assert.equal(bill.compensation_cost, 26_597_836 + 4_041_800);
  assert.equal(bill.tax_cost, 11_625_096); // 16 % of 726,568.48
  assert.equal(bill.total_cost, 84_281_944);
  assert.equal(b.power_factor, null);
  assert.deepEqual(bill.calculation_details.map((t) => [t.level, t.kwh, t.tier_cost]), [
    ["base", 102_475, 10_474_995],
    ["intermedia", 157_600, 25_006_392],
    ["punta", 37_665.5, 6_485_622],
  ]);
});

Deno.test("capacity demand follows the year's highest when the punta peak is low", () => {
  const usage = { ...usageOf(january(), null), year_max_kw: 1_000 };
  const b = computeBusinessBill(golfoNorte, usage, "2026-01").business;
  assert.equal(b.capacity!.kw, 700); // 70 % of 1,000 kW > 662 kW
  assert.equal(b.capacity!.cost, 28_124_600);
});

Deno.test("power factor: 85 % adds 3.5 %, 98 % takes off 2.0 % of the bill before tax", () => {
  const zone = { ...golfoNorte, power_factor_enabled: true };
  const power = january();
  const kwh = 297_740.5;
  const before = 50_203 + 41_967_009 + 26_597_836 + 4_041_800; // 72,656,848
  const low = computeBusinessBill(zone, usageOf(power, kwh / 0.85), "2026-01");
  assert.deepEqual(low.business.power_factor, {
    factor: 85,
    kind: "surcharge",
    percent: 3.5,
    amount: 2_542_990, // 3.5 % of 726,568.48 = 25,429.8968
  });
  assert.equal(low.compensation_cost, before - 50_203 - 41_967_009 + 2_542_990);
  const high = computeBusinessBill(zone, usageOf(power, kwh / 0.98), "2026-01");
  assert.deepEqual(high.business.power_factor, {
    factor: 98,
    kind: "bonus",
    percent: 2,
    amount: -1_453_137, // 2 % of 726,568.48 = 14,531.3696
  });
  assert.equal(high.total_cost - high.tax_cost, before - 1_453_137);
  // No apparent energy: no factor, no adjustment.
  assert.equal(
    computeBusinessBill(zone, usageOf(power, null), "2026-01").business.power_factor,
    null,
  );
});

Deno.test("without the industrial switches a time-of-use zone bills only its bands", () => {
  const shop: Zone = { ...golfoNorte, industrial_tariff: false, tariff_type: "commercial" };
  const bill = computeBusinessBill(shop, usageOf(january(), 1), "2026-01");
  assert.equal(bill.compensation_cost, 0);
  assert.equal(bill.business.capacity, null);
  assert.equal(bill.business.distribution, null);
  assert.equal(bill.total_cost, bill.energy_cost + 50_203 + bill.tax_cost);
  assert.throws(() =>
    computeBusinessBill({ ...shop, tou_schedule: "" }, usageOf([], 1), "2026-01")
  );
});
