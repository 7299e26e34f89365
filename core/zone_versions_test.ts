import assert from "node:assert/strict";
import { computeUnitBill } from "./tariff.ts";
import { defaultZone, type Zone } from "./zone.ts";
import {
  computeVersionedBill,
  versionAtEnd,
  versionOn,
  versionParts,
  type ZoneVersion,
} from "./zone_versions.ts";

const flat = (price: number, extra: Partial<Zone> = {}): Zone => ({
  ...defaultZone("Flat"),
  price_low: price,
  ...extra,
});

const versions: ZoneVersion[] = [
  { applies_from: "2026-03-15", zone: flat(2) },
  { applies_from: null, zone: flat(1) },
  { applies_from: "2026-05-01", zone: flat(3) },
];

Deno.test("versionOn(): the latest version from that day or before; the first reaches back", () => {
  assert.equal(versionOn(versions, "2019-06-30").zone.price_low, 1);
  assert.equal(versionOn(versions, "2026-03-14").zone.price_low, 1);
  assert.equal(versionOn(versions, "2026-03-15").zone.price_low, 2);
  assert.equal(versionOn(versions, "2026-04-30").zone.price_low, 2);
  assert.equal(versionOn(versions, "2027-01-01").zone.price_low, 3);
  assert.equal(versionAtEnd(versions, "2026-03").zone.price_low, 2);
  assert.throws(() => versionOn([], "2026-01-01"), RangeError);
});

Deno.test("a price change on the 15th splits a month's bill by days", () => {
  const parts = versionParts(versions, "2026-03");
  assert.deepEqual(parts.map((p) => [p.from, p.to, p.days]), [
    ["2026-03-01", "2026-03-14", 14],
    ["2026-03-15", "2026-03-31", 17],
  ]);
  // 310 kWh: 310.00 × 14/31 = 140.00 at the old price, 620.00 × 17/31 = 340.00 at the new one.
  const bill = computeVersionedBill(versions, 310, "2026-03");
  assert.equal(bill.energy_cost, 48000);
  assert.equal(bill.total_cost, 48000);
  assert.deepEqual(bill.calculation_details.map((t) => t.tier_cost), [14000, 34000]);
  assert.deepEqual(bill.parts.map((p) => p.applies_from), [null, "2026-03-15"]);
});

Deno.test("a period within one version bills exactly as computeUnitBill", () => {
  const zone: Zone = {
    ...defaultZone("Tiers"),
    enable_levels: true,
    tax_percentage: 16,
    price_low: 1.015,
    price_low_threshold: 75,
    price_middle: 1.239,
    price_middle_threshold: 140,
    price_high: 3.62,
  };
  const one = [{ applies_from: null, zone }];
  const { parts, ...bill } = computeVersionedBill(one, 200, "2024-01");
  assert.deepEqual(bill, computeUnitBill(zone, 200, { period: "2024-01" }));
  assert.equal(parts.length, 1);
  assert.equal(bill.total_cost, 43369);
});

Deno.test("a later version does not reach back into earlier periods", () => {
  const before = computeVersionedBill(versions.slice(0, 2), 100, "2026-04");
  const after = computeVersionedBill(versions, 100, "2026-04");
  assert.deepEqual(after, before);
  assert.equal(after.total_cost, 20000);
  // A bimonthly period: 14 days at 1 and 47 days (from March 15) at 2, of 61.
  const bi = computeVersionedBill(versions, 61, "2026-03-04");
  assert.deepEqual(bi.parts.map((p) => p.days), [14, 47]);
  assert.equal(bi.total_cost, 1400 + 9400);
});
