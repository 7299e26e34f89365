import assert from "node:assert/strict";
import { readUnitBillDetails, readZoneSnapshot, type UnitBillDetails } from "./bill_details.ts";
import { defaultZone } from "./zone.ts";

const tier = { level: "low", description: "Low", kwh: 10, price: 1.5, tier_cost: 1500 };

Deno.test("readUnitBillDetails() keeps the run's details and reads a bare tier list or nothing", () => {
  const run: UnitBillDetails = {
    pricing_mode: "tiered",
    season: "winter",
    winter_days: 31,
    summer_days: 0,
    tiers: [{ ...tier, from_kwh: 0, to_kwh: 150 }],
  };
  assert.equal(readUnitBillDetails(run), run, "the run's details are read as they are");
  assert.deepEqual(readUnitBillDetails([tier]), {
    pricing_mode: null,
    season: null,
    tiers: [tier],
  });
  assert.deepEqual(readUnitBillDetails(null), { pricing_mode: null, season: null, tiers: [] });
  assert.deepEqual(readUnitBillDetails({}), { pricing_mode: null, season: null, tiers: [] });
});

Deno.test("readUnitBillDetails() reads older tier lines and the additions it can", () => {
  const d = readUnitBillDetails({
    season: "summer",
    tiers: [{ level: "low", kwh: 5, price: 2, tierCost: 999.6 }, "junk", null],
    fixed_charge: 5000,
    price_versions: [{ applies_from: null, from: "2026-01-01", to: "2026-01-31", days: 31 }],
    high_consumption: { average_kwh: 300, months: 2, limit_kwh: 250 },
    estimation: { method: "method_3_zone_average", level: 3 },
  });
  assert.deepEqual(d, {
    pricing_mode: null,
    season: "summer",
    tiers: [{ level: "low", description: "", kwh: 5, price: 2, tier_cost: 1000 }],
    fixed_charge: 5000,
    price_versions: [{ applies_from: null, from: "2026-01-01", to: "2026-01-31", days: 31 }],
    high_consumption: { average_kwh: 300, months: 2, limit_kwh: 250, exceeded: false },
    estimation: { method: "method_3_zone_average", level: 3 },
  });
  assert.equal(
    readUnitBillDetails({ tiers: [], high_consumption: { months: 2 } }).high_consumption,
    undefined,
  );
});

Deno.test("readZoneSnapshot() reads a zone with its number id; nothing else is a snapshot", () => {
  const snap = { ...defaultZone("Then"), id: 4 };
  assert.equal(readZoneSnapshot(snap, 4), snap, "a snapshot of today's shape is read as it is");
  assert.equal(readZoneSnapshot({ junk: true }, 4), null);
  assert.equal(readZoneSnapshot(null, 4), null);
  assert.equal(readZoneSnapshot([], 4), null);
  // Price versions kept with their zone's id as text, and a snapshot without an id.
  const old = {
    ...defaultZone("Then"),
    price_versions: [
      { applies_from: null, zone: { ...defaultZone("Then"), id: "4" } },
      { applies_from: "2026-02-01", zone: { ...defaultZone("Then"), id: "4" } },
    ],
  };
  const read = readZoneSnapshot(old, 4)!;
  assert.equal(read.id, 4);
  assert.deepEqual(read.price_versions!.map((v) => v.zone.id), [4, 4]);
  assert.deepEqual(read.price_versions!.map((v) => v.applies_from), [null, "2026-02-01"]);
});
