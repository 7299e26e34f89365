/**
 * A unit bill kept in an older shape (its `calculation_details` a bare list of tier lines in
 * cents, its zone snapshot's price versions with the zone id as text) reads as today's bills
 * do: the API answers its tier costs in currency units and zone ids as numbers, the unit report
 * shows its tier lines.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import { billingWorld, meter, processPeriod, unitBillOf } from "./_billing_world.ts";

/** 2026-04-10 at noon in Mexico City: March has ended. */
const NOW = Date.UTC(2026, 3, 10, 18);

Deno.test("a bill kept with a bare tier list and text zone ids answers units and number ids", async () => {
  const w = await billingWorld({ now: NOW });
  try {
    await meter(w.t, "SIM-A", "2026-03", 200);
    await processPeriod(w, "2026-03");
    const bill = await unitBillOf(w, "2026-03");
    // The bill as an older portal kept it, written over the run's.
    const key = ["unit_bills", bill.station_id, "2026-03", "unit_1"];
    const stored = (await w.t.deps.kv.get<Record<string, unknown>>(key)).value!;
    const zone = stored.zone_snapshot as Record<string, unknown>;
    await w.t.deps.kv.set(key, {
      ...stored,
      calculation_details: bill.calculation_details.tiers,
      zone_snapshot: {
        ...zone,
        price_versions: [
          { applies_from: null, zone: { ...zone, id: String(w.zoneId) } },
          { applies_from: "2026-03-15", zone: { ...zone, id: String(w.zoneId) } },
        ],
      },
    });

    const { bills } = await (await call(w.t, "GET", "/api/bills", { token: w.admin })).json();
    const b = bills.find((x: { id: number }) => x.id === bill.id);
    // 150 × 1.00 + 50 × 2.00: the tiers cost 150.00 and 100.00.
    assert.deepEqual(
      b.calculation_details.tiers.map((t: { tier_cost: number }) => t.tier_cost)
        .filter((c: number) => c > 0),
      [150, 100],
    );
    assert.equal(b.calculation_details.pricing_mode, null);
    assert.deepEqual(
      b.zone_snapshot.price_versions.map((v: { zone: { id: unknown } }) => v.zone.id),
      [w.zoneId, w.zoneId],
    );

    const page = await call(
      w.t,
      "GET",
      `/admin/report/station/${w.stationId}/unit/unit_1?month=2026-03`,
      { token: w.admin },
    );
    assert.equal(page.status, 200);
    const lines = (await page.text()).match(/<ul class="tier-lines">(.*?)<\/ul>/s)?.[1];
    assert.deepEqual(lines?.match(/[\d.]+ MXN/g), ["150.00 MXN", "100.00 MXN"]);
  } finally {
    await w.t.close();
  }
});
