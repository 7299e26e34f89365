import assert from "node:assert/strict";
import {
  type CustomerFact,
  financeOverview,
  marginPercent,
  ownerTotals,
  passes,
  summarize,
  type UnitFact,
} from "./finances.ts";

const unit = (o: Partial<UnitFact>): UnitFact => ({
  station_id: 1,
  zone_id: 1,
  period: "2026-03",
  currency: "MXN",
  finalized: true,
  paid: false,
  base_tariff: 4000,
  energy_cost: 10000,
  compensation_cost: 0,
  tax_cost: 2240,
  total_cost: 16240,
  ...o,
});
const station = (o: Partial<CustomerFact>): CustomerFact => ({
  station_id: 1,
  zone_id: 1,
  period: "2026-03",
  currency: "MXN",
  finalized: true,
  commission: 2000,
  fees: 5000,
  tax: 1120,
  total: 8120,
  commission_rate: 10,
  fee_per_unit: 2500,
  tax_rate: 16,
  ...o,
});

Deno.test("summarize() gives the station bill's share of the paid unit bills", () => {
  const rows = summarize({
    units: [unit({ paid: true, energy_cost: 10005 }), unit({}), unit({ finalized: false })],
    customers: [station({})],
  });
  assert.equal(rows.length, 1);
  const r = rows[0];
  assert.equal(r.units, 2);
  assert.equal(r.paid_units, 1);
  assert.equal(r.paid_commission, 1001); // 10 % of 100.05, half up
  assert.equal(r.paid_fees, 2500);
  assert.equal(r.paid_customer_tax, 560); // 16 % of 35.01 = 5.6016
  assert.equal(r.paid_customers, 0);
});

Deno.test("financeOverview() keeps commission and fees as profit and never adds currencies", () => {
  const rows = summarize({
    units: [unit({ paid: true }), unit({ station_id: 2, currency: "EUR", total_cost: 99999 })],
    customers: [station({}), station({ station_id: 2, currency: "EUR", total: 77777 })],
  });
  const o = financeOverview(rows, "MXN");
  assert.equal(o.overview.unit_revenue, 4000 + 10000 + 2240);
  assert.equal(o.overview.customer_revenue, 2000 + 5000 + 1120);
  assert.equal(o.overview.total_revenue, 16240 + 8120);
  assert.equal(o.overview.total_profit, 7000);
  assert.equal(o.customer_billing.combined.paid_bills, 1);
  assert.equal(o.overview.payment_profit, 1000 + 2500);
  assert.equal(o.overview.profit_margin, marginPercent(7000, 24360));
  assert.equal(o.unit_billing.bimonthly.total_bills, 0);
  const owner = ownerTotals(rows);
  assert.deepEqual(owner.get("MXN"), {
    revenue: 16240,
    profit: 16240 - 8120,
    payment_revenue: 16240,
    payment_profit: 16240 - (1000 + 2500 + 560),
  });
  assert.equal(owner.get("EUR")!.revenue, 99999);
});

Deno.test("passes() keeps periods that overlap the date range", () => {
  const f = { station_id: 1, period: "2026-03-04", currency: "MXN" };
  assert.ok(passes(f, { start: "2026-04-30" }));
  assert.ok(!passes(f, { start: "2026-05-01" }));
  assert.ok(passes(f, { end: "2026-03-01" }));
  assert.ok(!passes(f, { end: "2026-02-28" }));
  assert.ok(!passes(f, { currency: "EUR" }));
  assert.ok(!passes(f, { year: 2025 }));
});
