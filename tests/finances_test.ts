/**
 * Finances (issues 13 and 14): a station in pesos billed for three closed months and a station
 * of another owner in euros, one bill paid. Every figure of `/api/finances/*` and of the
 * owner's `/api/customer-billing-overview/*` is recomputed here by hand from the bill lists
 * (`/api/bills`, `/api/customer-bills`), per currency; an owner sees only their own bills; a
 * payment shows up at the next request.
 */
import assert from "node:assert/strict";
import { addStation, assignOwner, billingWorld, meter, payBill, TIERED } from "./_billing_world.ts";
import { account, call, refusedQueries, testsWith } from "./_helpers.ts";
import { runBilling } from "../services/billing/mod.ts";
import { stationOwnerProfit } from "../services/finances/mod.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone, type Zone } from "../core/zone.ts";
import { issueToken } from "../services/platform/tokens.ts";
import { formatter } from "../core/format.ts";

/** Currency units as the pages write pesos (`$1,234.56 MXN`). */
const mxn = (units: number) => formatter("en").money(Math.round(units * 100), "MXN");

const NOW = Date.UTC(2026, 4, 15, 18); // 2026-05-15: February, March and April have ended
const MONTHS = ["2026-02", "2026-03", "2026-04"];
const H = 3_600_000;

/** Money of the API (units) as cents. */
const c = (units: number) => Math.round(units * 100);
/** Half-up percent of cents (the rule of the station bill). */
const pct = (cents: number, rate: number) => Math.round((cents * rate) / 100);
const margin = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;

interface Bill {
  id: number;
  station_id: number;
  billing_month: string;
  currency: string;
  is_finalized: boolean;
  payment_status: string;
  base_tariff: number;
  energy_cost: number;
  compensation_cost: number;
  tax_cost: number;
  total_cost: number;
}
interface CustomerBill {
  station_id: number;
  billing_month: string;
  currency: string;
  is_finalized: boolean;
  commission_amount: number;
  fee_amount: number;
  tax_amount: number;
  total_amount: number;
  calculation_details: { commission_rate: number; fee_per_unit: number; tax_rate: number };
}

async function world() {
  const w = await billingWorld({ now: NOW, owner: true });
  const t = w.t;
  const euro = await createZone(t.deps.kv, {
    ...defaultZone("Euro"),
    ...TIERED,
    currency: "EUR",
    customer_commission: 12.5,
  } as Zone, NOW);
  const owner2 = await account(t, "customer");
  const tenant3 = await account(t, "user");
  const sur = await addStation(t, w.admin, { name: "Sur", serial: "ST-S1", zoneId: euro.id }, [
    { id: "unit_1", name: "Piso 1", serial: "SIM-E", tenant: tenant3.user.id },
  ]);
  await assignOwner(t, w.admin, owner2.user.id, [sur.id]);
  const owner2Token = await issueToken(t.deps.secret, owner2.user, NOW - 30 * 24 * H, 400 * 86400);
  const kwh: Record<string, [number, number]> = {
    "2026-02": [300, 100],
    "2026-03": [180.5, 95],
    "2026-04": [420, 0],
  };
  for (const m of MONTHS) {
    await meter(t, "SIM-A", m, kwh[m][0]);
    await meter(t, "SIM-B", m, kwh[m][1]);
    await runBilling(t.deps, w.zoneId, m);
  }
  await meter(t, "SIM-E", "2026-03", 250);
  await runBilling(t.deps, euro.id, "2026-03");
  // A draft of the open month, which no figure counts.
  await meter(t, "SIM-A", "2026-05", 50);
  await runBilling(t.deps, w.zoneId, "2026-05");
  return { w, t, euro, sur: sur.id, owner2Token };
}

async function json(w: { t: Parameters<typeof call>[0] }, path: string, token: string) {
  const res = await call(w.t, "GET", path, { token });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json();
}

/** The bill lists as the admin reads them. */
async function lists(w: Awaited<ReturnType<typeof world>>) {
  const bills: Bill[] = (await json(w, "/api/bills", w.w.admin)).bills;
  const customers: CustomerBill[] = (await json(w, "/api/customer-bills", w.w.admin)).bills;
  return {
    bills: bills.filter((b) => b.is_finalized),
    customers: customers.filter((b) => b.is_finalized),
  };
}

/** The admin's figures of one currency, by hand. */
function byHand(l: Awaited<ReturnType<typeof lists>>, currency: string) {
  const units = l.bills.filter((b) => b.currency === currency);
  const custs = l.customers.filter((b) => b.currency === currency);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const paid = units.filter((b) => b.payment_status === "paid");
  const unit = {
    total_bills: units.length,
    paid_bills: paid.length,
    paid_revenue: sum(paid.map((b) => c(b.total_cost))),
    total_base_tariff: sum(units.map((b) => c(b.base_tariff))),
    total_energy_cost: sum(units.map((b) => c(b.energy_cost))),
    total_compensation_cost: sum(units.map((b) => c(b.compensation_cost))),
    total_tax_cost: sum(units.map((b) => c(b.tax_cost))),
  };
  let paidCommission = 0, paidFees = 0, paidTax = 0, paidCustomers = 0;
  for (const cb of custs) {
    const of = units.filter((b) =>
      b.station_id === cb.station_id && b.billing_month === cb.billing_month
    );
    const p = of.filter((b) => b.payment_status === "paid");
    const d = cb.calculation_details;
    const com = pct(
      sum(p.map((b) => c(b.energy_cost) + c(b.compensation_cost))),
      d.commission_rate,
    );
    const fees = p.length * c(d.fee_per_unit);
    paidCommission += com;
    paidFees += fees;
    paidTax += pct(com + fees, d.tax_rate);
    if (p.length > 0 && p.length === of.length) paidCustomers++;
  }
  const customer = {
    total_bills: custs.length,
    paid_bills: paidCustomers,
    paid_revenue: paidCommission + paidFees + paidTax,
    total_commission: sum(custs.map((b) => c(b.commission_amount))),
    total_fees: sum(custs.map((b) => c(b.fee_amount))),
    total_tax: sum(custs.map((b) => c(b.tax_amount))),
    paid_commission: paidCommission,
    paid_fees: paidFees,
  };
  const unitRevenue = sum(units.map((b) => c(b.total_cost)));
  const customerRevenue = sum(custs.map((b) => c(b.total_amount)));
  const profit = customer.total_commission + customer.total_fees;
  const paymentRevenue = unit.paid_revenue + customer.paid_revenue;
  const paymentProfit = paidCommission + paidFees;
  return {
    unit,
    customer,
    overview: {
      total_revenue: unitRevenue + customerRevenue,
      total_profit: profit,
      payment_revenue: paymentRevenue,
      payment_profit: paymentProfit,
      total_bills: units.length + custs.length,
      profit_margin: margin(profit, unitRevenue + customerRevenue),
      payment_profit_margin: margin(paymentProfit, paymentRevenue),
      unit_revenue: unitRevenue,
      customer_revenue: customerRevenue,
    },
  };
}

/** An API block with its money in cents (counts and margins as they are). */
function cents(o: Record<string, number>): Record<string, number> {
  const keep = ["total_bills", "paid_bills", "profit_margin", "payment_profit_margin"];
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, keep.includes(k) ? v : c(v)]));
}

/** A test with a fresh {@link world}, closed afterwards. */
const test = testsWith(world, (w) => w.t.close());

test("GET /api/finances/overview equals the bill lists summed by hand, per currency", async (w) => {
  let l = await lists(w);
  // The unit bill of unit_1 in March is paid.
  const march = l.bills.find((b) => b.billing_month === "2026-03" && b.currency === "MXN")!;
  await payBill(w.w, march.id);
  l = await lists(w);
  assert.equal(l.bills.filter((b) => b.payment_status === "paid").length >= 1, true);
  for (const currency of ["MXN", "EUR"]) {
    const hand = byHand(l, currency);
    const api = await json(w, `/api/finances/overview?currency=${currency}`, w.w.admin);
    assert.equal(api.currency, currency);
    assert.deepEqual(cents(api.overview), hand.overview, `${currency} overview`);
    for (
      const [block, want] of [["unit_billing", hand.unit], [
        "customer_billing",
        hand.customer,
      ]] as const
    ) {
      const got = cents(api[block].combined);
      for (const [k, v] of Object.entries(want)) {
        assert.equal(got[k], v, `${currency} ${block}.${k}`);
      }
      assert.equal(api[block].bimonthly.total_bills, 0);
      assert.deepEqual(api[block].monthly, api[block].combined);
    }
  }
  const mxn = byHand(l, "MXN");
  assert.equal(mxn.unit.total_bills, 6);
  assert.equal(mxn.unit.paid_bills, 1);
  assert.ok(mxn.customer.paid_commission > 0);
  // USD has no bills: zeros, and never another currency's figures.
  const usd = await json(w, "/api/finances/overview?currency=USD", w.w.admin);
  assert.equal(usd.overview.total_revenue, 0);
  assert.equal(usd.overview.total_bills, 0);
  // Without a currency: the one with most bills on top, every currency apart.
  const all = await json(w, "/api/finances/overview", w.w.admin);
  assert.equal(all.currency, "MXN");
  assert.deepEqual(Object.keys(all.by_currency).sort(), ["EUR", "MXN"]);
  assert.deepEqual(cents(all.by_currency.EUR.overview), byHand(l, "EUR").overview);
  assert.deepEqual(cents(all.overview), mxn.overview);
});

test("a payment and a date range show up at the next request", async (w) => {
  const before = await json(w, "/api/finances/overview?currency=MXN", w.w.admin);
  const l = await lists(w);
  const feb = l.bills.filter((b) => b.billing_month === "2026-02");
  for (const b of feb) await payBill(w.w, b.id);
  const after = await json(w, "/api/finances/overview?currency=MXN", w.w.admin);
  assert.equal(
    after.unit_billing.combined.paid_bills,
    before.unit_billing.combined.paid_bills + 2,
  );
  // Both unit bills of February paid: its station bill is paid in full.
  assert.equal(after.customer_billing.combined.paid_bills, 1);
  const febStation = (await lists(w)).customers.find((b) => b.billing_month === "2026-02")!;
  assert.equal(
    c(after.customer_billing.combined.paid_commission),
    c(febStation.commission_amount),
  );
  assert.equal(c(after.customer_billing.combined.paid_fees), c(febStation.fee_amount));
  const range = await json(
    w,
    "/api/finances/overview?currency=MXN&start_date=2026-03-01&end_date=2026-03-31",
    w.w.admin,
  );
  const hand = byHand({
    bills: l.bills.filter((b) => b.billing_month === "2026-03"),
    customers: l.customers.filter((b) => b.billing_month === "2026-03"),
  }, "MXN");
  assert.equal(range.unit_billing.combined.total_bills, 2);
  assert.equal(c(range.overview.total_revenue), hand.overview.total_revenue);
});

test("GET /api/finances/bimonthly and /zones group revenue and profit per currency", async (w) => {
  const l = await lists(w);
  const { bimonthly_data } = await json(w, "/api/finances/bimonthly", w.w.admin);
  const rev = (ms: string[], cur: string) =>
    l.bills.filter((b) => ms.includes(b.billing_month) && b.currency === cur)
      .reduce((a, b) => a + c(b.total_cost), 0) +
    l.customers.filter((b) => ms.includes(b.billing_month) && b.currency === cur)
      .reduce((a, b) => a + c(b.total_amount), 0);
  const prof = (ms: string[], cur: string) =>
    l.customers.filter((b) => ms.includes(b.billing_month) && b.currency === cur)
      .reduce((a, b) => a + c(b.commission_amount) + c(b.fee_amount), 0);
  assert.deepEqual(
    bimonthly_data.map((
      r: { period: string; currency: string; total_revenue: number; profit: number },
    ) => [r.period, r.currency, c(r.total_revenue), c(r.profit)]),
    [
      ["2026-01-02", "MXN", rev(["2026-02"], "MXN"), prof(["2026-02"], "MXN")],
      ["2026-03-04", "EUR", rev(["2026-03"], "EUR"), prof(["2026-03"], "EUR")],
      [
        "2026-03-04",
        "MXN",
        rev(["2026-03", "2026-04"], "MXN"),
        prof(["2026-03", "2026-04"], "MXN"),
      ],
    ],
  );
  const eurOnly = await json(w, "/api/finances/bimonthly?currency=EUR", w.w.admin);
  assert.equal(eurOnly.bimonthly_data.length, 1);
  const { zones_performance } = await json(w, "/api/finances/zones?currency=MXN", w.w.admin);
  assert.deepEqual(zones_performance.map((z: { zone_name: string }) => z.zone_name), ["Tiered"]);
  assert.equal(c(zones_performance[0].total_revenue), rev(MONTHS, "MXN"));
  assert.equal(c(zones_performance[0].profit), prof(MONTHS, "MXN"));
  const all = await json(w, "/api/finances/zones", w.w.admin);
  assert.deepEqual(
    all.zones_performance.map((z: { zone_name: string; currency: string }) =>
      `${z.zone_name} ${z.currency}`
    ).sort(),
    ["Euro EUR", "Tiered MXN"],
  );
});

test("bad finance queries are a 400 naming the field and change nothing", async (w) => {
  const badQueries = {
    "currency=GBP": "currency",
    "start_date=2026-13-01": "start_date",
    "end_date=yesterday": "end_date",
    "start_date=2026-04-01&end_date=2026-03-01": "end_date",
  };
  for (const path of ["overview", "bimonthly", "zones"]) {
    await refusedQueries(
      w.t,
      w.w.admin,
      Object.fromEntries(
        Object.entries(badQueries).map(([q, field]) => [`/api/finances/${path}?${q}`, field]),
      ),
    );
  }
  const page = await call(w.t, "GET", "/admin/finances?currency=GBP", {
    cookie: `token=${w.w.admin}`,
  });
  assert.equal(page.status, 400);
  await page.body?.cancel();
});

test("the owner's billing overview is their own stations' bills, figured by hand", async (w) => {
  const l = await lists(w);
  const march = l.bills.find((b) => b.billing_month === "2026-03" && b.currency === "MXN")!;
  await payBill(w.w, march.id);
  const owner = w.w.owner!.token;
  const type = await json(w, "/api/customer-billing-overview/billing-type", owner);
  assert.deepEqual(type, { billing_type: "monthly", currency: "MXN" });
  const o = await json(w, "/api/customer-billing-overview/overview?year=2026", owner);
  const mine = l.bills.filter((b) => b.station_id === w.w.stationId);
  const mineC = l.customers.filter((b) => b.station_id === w.w.stationId);
  const revenue = mine.reduce((a, b) => a + c(b.total_cost), 0);
  const owed = mineC.reduce((a, b) => a + c(b.total_amount), 0);
  const paid = c(march.total_cost);
  const mc = mineC.find((b) => b.billing_month === "2026-03")!;
  const com = pct(
    c(march.energy_cost) + c(march.compensation_cost),
    mc.calculation_details.commission_rate,
  );
  const fee = c(mc.calculation_details.fee_per_unit);
  const share = com + fee + pct(com + fee, mc.calculation_details.tax_rate);
  const y = o.yearly_overview;
  assert.deepEqual(Object.keys(y.currency_totals), ["MXN"]);
  assert.deepEqual(cents(y.currency_totals.MXN), {
    revenue,
    profit: revenue - owed,
    payment_revenue: paid,
    payment_profit: paid - share,
  });
  assert.equal(c(y.total_revenue), revenue);
  assert.equal(c(y.total_profit), revenue - owed);
  assert.equal(c(y.payment_profit), paid - share);
  assert.equal(y.total_invoices, 6);
  assert.equal(y.total_customer_bills, 3);
  assert.equal(y.paid_bills, 1);
  assert.equal(y.profit_margin, margin(revenue - owed, revenue));
  assert.equal(y.primary_currency, "MXN");
  assert.deepEqual(o.period_data.map((p: { period: string }) => p.period), MONTHS);
  for (const p of o.period_data) {
    const r = mine.filter((b) => b.billing_month === p.period).reduce(
      (a, b) => a + c(b.total_cost),
      0,
    );
    const cb = mineC.find((b) => b.billing_month === p.period)!;
    assert.equal(c(p.revenue), r);
    assert.equal(c(p.profit), r - c(cb.total_amount));
    assert.equal(p.invoice_count, 2);
  }
  // The same service answers the installation page's all-time figures.
  const station = (await stationOwnerProfit(w.t.deps, w.w.stationId)).get("MXN")!;
  assert.deepEqual(station, {
    revenue,
    profit: revenue - owed,
    payment_revenue: paid,
    payment_profit: paid - share,
  });
  const past = await json(w, "/api/customer-billing-overview/overview?year=2025", owner);
  assert.equal(past.yearly_overview.total_invoices, 0);
  // The other owner sees only the station in euros.
  const o2 = await json(w, "/api/customer-billing-overview/overview?year=2026", w.owner2Token);
  assert.deepEqual(Object.keys(o2.yearly_overview.currency_totals), ["EUR"]);
  assert.equal(o2.yearly_overview.total_invoices, 1);
  assert.equal(o2.currency, "EUR");
  const d1 = await json(w, "/api/customer-billing-overview/detail?period=2026-03", owner);
  assert.deepEqual(
    d1.unit_bills.map((
      b: { station_id: number; unit_name: string },
    ) => [b.station_id, b.unit_name]),
    [[w.w.stationId, "Depto 1"], [w.w.stationId, "Depto 2"]],
  );
  assert.equal(d1.customer_bills.length, 1);
  assert.equal(d1.customer_bills[0].station_id, w.w.stationId);
  const d2 = await json(w, "/api/customer-billing-overview/detail?period=2026-03", w.owner2Token);
  assert.deepEqual(d2.unit_bills.map((b: { station_id: number }) => b.station_id), [w.sur]);
  assert.deepEqual(d2.customer_bills.map((b: { station_id: number }) => b.station_id), [w.sur]);
  const drafts = await json(w, "/api/customer-billing-overview/detail?period=2026-05", owner);
  assert.deepEqual(drafts, { period: "2026-05", unit_bills: [], customer_bills: [] });
  const bad = await call(w.t, "GET", "/api/customer-billing-overview/detail?period=2026-13", {
    token: owner,
  });
  assert.equal(bad.status, 400);
  assert.ok((await bad.json()).errors.period);
});

test("the finance pages and their CSV files show the same figures", async (w) => {
  const api = await json(w, "/api/finances/overview?currency=MXN", w.w.admin);
  const res = await call(w.t, "GET", "/admin/finances?currency=MXN", {
    cookie: `token=${w.w.admin}`,
  });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.doesNotMatch(html, /finances\.[a-z_]+\.[a-z_]/, "a raw locale key");
  assert.ok(html.includes(mxn(api.overview.total_revenue)));
  assert.ok(html.includes(mxn(api.overview.total_profit)));
  assert.match(html, /data-chart="finance-trend"/);
  assert.match(html, /data-chart="finance-zones"/);
  const csv = await call(w.t, "GET", "/admin/finances/export/details.csv?currency=MXN", {
    cookie: `token=${w.w.admin}`,
  });
  assert.match(csv.headers.get("content-disposition") ?? "", /finances_details_MXN\.csv/);
  const text = await csv.text();
  assert.ok(text.includes(`${api.unit_billing.monthly.total_energy_cost.toFixed(2)},MXN`));
  const zones = await (await call(w.t, "GET", "/admin/finances/export/zones.csv", {
    cookie: `token=${w.w.admin}`,
  })).text();
  assert.match(zones, /Tiered,/);
  assert.doesNotMatch(zones, /Euro,/);
  // An empty currency: the empty state, no charts.
  const usd = await (await call(w.t, "GET", "/admin/finances?currency=USD", {
    cookie: `token=${w.w.admin}`,
  })).text();
  assert.match(usd, /data-testid="finance-empty"/);
  assert.doesNotMatch(usd, /data-chart=/);
  // The owner's page.
  const o = await json(w, "/api/customer-billing-overview/overview?year=2026", w.w.owner!.token);
  const page = await call(w.t, "GET", "/customer/billing?year=2026", {
    cookie: `token=${w.w.owner!.token}`,
  });
  assert.equal(page.status, 200);
  const ph = await page.text();
  assert.doesNotMatch(ph, /customer\.[a-z_]+\.[a-z_]/, "a raw locale key");
  assert.ok(ph.includes(mxn(o.yearly_overview.total_revenue)));
  assert.doesNotMatch(ph, /Piso 1/);
  // Only the periods that have bills get a section (not the year's empty months).
  assert.equal(
    (ph.match(/data-testid="period-section"/g) ?? []).length,
    o.period_data.length,
  );
  assert.equal(o.period_data.length, 3);
  const units = await (await call(w.t, "GET", "/customer/billing/export/units.csv?period=2026-03", {
    cookie: `token=${w.w.owner!.token}`,
  })).text();
  assert.match(units, /Depto 1/);
  const other = await (await call(w.t, "GET", "/customer/billing/export/units.csv?period=2026-03", {
    cookie: `token=${w.owner2Token}`,
  })).text();
  assert.doesNotMatch(other, /Depto/);
  assert.match(other, /Piso 1/);
});
