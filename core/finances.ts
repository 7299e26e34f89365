/**
 * The finance rules (spec 001 sections 1 and 3; issues 13 and 14), pure and in integer cents:
 * - "bills" figures are over finalized bills, "payment" figures over paid ones;
 * - the provider keeps the customer commission and fees as profit; base tariff, energy,
 *   compensation and every tax are passed through;
 * - the owner's profit is what the tenants pay minus commission, fees and their taxes;
 * - the station bill's share of the paid unit bills: commission on their energy plus
 *   compensation cost, the fee per paid unit, the tax on both (the station bill's own rule);
 * - figures are grouped by currency and never added across currencies.
 */
import { percentOfCents } from "./tariff.ts";
import { parsePeriod } from "./periods.ts";

/** The currencies of the finance screens (spec 001 section 9). */
export const FINANCE_CURRENCIES = ["MXN", "EUR", "USD"] as const;
/** A currency of the finance screens. */
export type FinanceCurrency = typeof FINANCE_CURRENCIES[number];

/** What the figures need of a unit bill (cents). */
export interface UnitFact {
  station_id: number;
  zone_id: number;
  period: string;
  currency: string;
  finalized: boolean;
  paid: boolean;
  base_tariff: number;
  energy_cost: number;
  compensation_cost: number;
  tax_cost: number;
  total_cost: number;
}

/** What the figures need of a customer (station) bill (cents; rates in percent). */
export interface CustomerFact {
  station_id: number;
  zone_id: number;
  period: string;
  currency: string;
  finalized: boolean;
  commission: number;
  fees: number;
  tax: number;
  total: number;
  commission_rate: number;
  fee_per_unit: number;
  tax_rate: number;
}

/** Every bill's facts. */
export interface BillFacts {
  units: readonly UnitFact[];
  customers: readonly CustomerFact[];
}

/** The figures of one block (spec 001 section 3, `unit_billing.monthly` and the like); cents. */
export interface BlockFigures {
  total_bills: number;
  paid_bills: number;
  paid_revenue: number;
  total_base_tariff: number;
  total_energy_cost: number;
  total_compensation_cost: number;
  total_tax_cost: number;
  total_commission: number;
  total_fees: number;
  total_tax: number;
  paid_commission: number;
  paid_fees: number;
}

/** The monthly, bimonthly and combined blocks of one kind of billing. */
export interface BillingBlocks {
  monthly: BlockFigures;
  bimonthly: BlockFigures;
  combined: BlockFigures;
}

/** The top line of the admin's overview (cents; margins in percent, 2 decimals). */
export interface OverviewFigures {
  total_revenue: number;
  total_profit: number;
  payment_revenue: number;
  payment_profit: number;
  total_bills: number;
  profit_margin: number;
  payment_profit_margin: number;
  unit_revenue: number;
  customer_revenue: number;
}

/** The admin's overview of one currency. */
export interface FinanceOverview {
  currency: string;
  overview: OverviewFigures;
  unit_billing: BillingBlocks;
  customer_billing: BillingBlocks;
}

/** A customer bill's share of its paid unit bills (cents) and whether all of them are paid. */
export interface PaidShare {
  commission: number;
  fees: number;
  tax: number;
  all_paid: boolean;
}

/** Which bills count: a currency, a set of stations, periods overlapping a date range. */
export interface FactFilter {
  currency?: string;
  stations?: ReadonlySet<number>;
  /** `YYYY-MM-DD` bounds, inclusive. */
  start?: string;
  end?: string;
  /** Only periods of this year. */
  year?: number;
}

const ZERO_BLOCK: BlockFigures = {
  total_bills: 0,
  paid_bills: 0,
  paid_revenue: 0,
  total_base_tariff: 0,
  total_energy_cost: 0,
  total_compensation_cost: 0,
  total_tax_cost: 0,
  total_commission: 0,
  total_fees: 0,
  total_tax: 0,
  paid_commission: 0,
  paid_fees: 0,
};

const stationPeriod = (f: { station_id: number; period: string }) => `${f.station_id}|${f.period}`;

/** `part / whole` in percent with 2 decimals; 0 when nothing is whole. */
export function marginPercent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;
}

/** The first and last day (`YYYY-MM-DD`) of a period. */
function periodSpan(period: string): [string, string] {
  const p = parsePeriod(period);
  const first = p.months[0], last = p.months[p.months.length - 1];
  const days = new Date(Date.UTC(p.year, last, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, "0");
  return [`${p.year}-${pad(first)}-01`, `${p.year}-${pad(last)}-${pad(days)}`];
}

/** Whether a bill's facts pass the filter. */
export function passes(
  f: { station_id: number; period: string; currency: string },
  q: FactFilter,
): boolean {
  if (q.currency !== undefined && f.currency !== q.currency) return false;
  if (q.stations && !q.stations.has(f.station_id)) return false;
  if (q.year !== undefined && Number(f.period.slice(0, 4)) !== q.year) return false;
  if (q.start !== undefined || q.end !== undefined) {
    const [from, to] = periodSpan(f.period);
    if (q.start !== undefined && to < q.start) return false;
    if (q.end !== undefined && from > q.end) return false;
  }
  return true;
}

/** The finalized facts passing the filter. */
export function selectFacts(facts: BillFacts, q: FactFilter): BillFacts {
  return {
    units: facts.units.filter((u) => u.finalized && passes(u, q)),
    customers: facts.customers.filter((c) => c.finalized && passes(c, q)),
  };
}

/**
 * The share of each customer bill (by station and period) that its paid unit bills carry:
 * commission on their energy plus compensation cost, the fee per paid unit, the tax on both.
 */
export function paidShares(facts: BillFacts): Map<string, PaidShare> {
  const paid = new Map<string, { base: number; n: number; all: boolean }>();
  for (const u of facts.units) {
    if (!u.finalized) continue;
    const k = stationPeriod(u);
    const s = paid.get(k) ?? { base: 0, n: 0, all: true };
    if (u.paid) {
      s.base += u.energy_cost + u.compensation_cost;
      s.n++;
    } else s.all = false;
    paid.set(k, s);
  }
  const out = new Map<string, PaidShare>();
  for (const c of facts.customers) {
    const s = paid.get(stationPeriod(c)) ?? { base: 0, n: 0, all: false };
    const commission = percentOfCents(s.base, c.commission_rate);
    const fees = s.n * c.fee_per_unit;
    out.set(stationPeriod(c), {
      commission,
      fees,
      tax: percentOfCents(commission + fees, c.tax_rate),
      all_paid: s.all && s.n > 0,
    });
  }
  return out;
}

/** A customer bill's paid share (zero when none of its unit bills is paid). */
export function shareOf(shares: Map<string, PaidShare>, c: CustomerFact): PaidShare {
  return shares.get(stationPeriod(c)) ?? { commission: 0, fees: 0, tax: 0, all_paid: false };
}

const kindOf = (period: string) => period.length === 7 ? "monthly" : "bimonthly";

/**
 * The admin's overview of one currency over finalized bills that pass `q` (spec 001 section
 * 3, "Finance overview"). `shares` come from every bill ({@link paidShares}).
 */
export function financeOverview(
  facts: BillFacts,
  shares: Map<string, PaidShare>,
  currency: string,
): FinanceOverview {
  const unit = { monthly: { ...ZERO_BLOCK }, bimonthly: { ...ZERO_BLOCK } };
  const cust = { monthly: { ...ZERO_BLOCK }, bimonthly: { ...ZERO_BLOCK } };
  for (const u of facts.units) {
    if (!u.finalized || u.currency !== currency) continue;
    const b = unit[kindOf(u.period)];
    b.total_bills++;
    b.total_base_tariff += u.base_tariff;
    b.total_energy_cost += u.energy_cost;
    b.total_compensation_cost += u.compensation_cost;
    b.total_tax_cost += u.tax_cost;
    if (u.paid) {
      b.paid_bills++;
      b.paid_revenue += u.total_cost;
    }
  }
  for (const c of facts.customers) {
    if (!c.finalized || c.currency !== currency) continue;
    const b = cust[kindOf(c.period)];
    const s = shareOf(shares, c);
    b.total_bills++;
    b.total_commission += c.commission;
    b.total_fees += c.fees;
    b.total_tax += c.tax;
    b.paid_commission += s.commission;
    b.paid_fees += s.fees;
    b.paid_revenue += s.commission + s.fees + s.tax;
    if (s.all_paid) b.paid_bills++;
  }
  const unitBlocks = withCombined(unit);
  const custBlocks = withCombined(cust);
  const u = unitBlocks.combined, c = custBlocks.combined;
  const unit_revenue = u.total_base_tariff + u.total_energy_cost + u.total_compensation_cost +
    u.total_tax_cost;
  const customer_revenue = c.total_commission + c.total_fees + c.total_tax;
  const total_revenue = unit_revenue + customer_revenue;
  const total_profit = c.total_commission + c.total_fees;
  const payment_revenue = u.paid_revenue + c.paid_revenue;
  const payment_profit = c.paid_commission + c.paid_fees;
  return {
    currency,
    overview: {
      total_revenue,
      total_profit,
      payment_revenue,
      payment_profit,
      total_bills: u.total_bills + c.total_bills,
      profit_margin: marginPercent(total_profit, total_revenue),
      payment_profit_margin: marginPercent(payment_profit, payment_revenue),
      unit_revenue,
      customer_revenue,
    },
    unit_billing: unitBlocks,
    customer_billing: custBlocks,
  };
}

function withCombined(b: { monthly: BlockFigures; bimonthly: BlockFigures }): BillingBlocks {
  const combined = { ...ZERO_BLOCK };
  for (const k of Object.keys(combined) as (keyof BlockFigures)[]) {
    combined[k] = b.monthly[k] + b.bimonthly[k];
  }
  return { ...b, combined };
}

/** Revenue and profit of a group of bills (cents). */
export interface RevenueProfit {
  total_revenue: number;
  profit: number;
}

/**
 * The provider's revenue (unit totals plus station bill totals) and profit (commission plus
 * fees) of finalized bills, grouped by `keyOf` and currency: `"key|currency"` → figures.
 */
export function revenueBy(
  facts: BillFacts,
  keyOf: (f: { period: string; zone_id: number }) => string | null,
): Map<string, RevenueProfit & { key: string; currency: string }> {
  const out = new Map<string, RevenueProfit & { key: string; currency: string }>();
  const at = (f: { period: string; zone_id: number; currency: string }) => {
    const key = keyOf(f);
    if (key === null) return null;
    const id = `${key}|${f.currency}`;
    let r = out.get(id);
    if (!r) out.set(id, r = { key, currency: f.currency, total_revenue: 0, profit: 0 });
    return r;
  };
  for (const u of facts.units) {
    const r = u.finalized ? at(u) : null;
    if (r) r.total_revenue += u.total_cost;
  }
  for (const c of facts.customers) {
    const r = c.finalized ? at(c) : null;
    if (!r) continue;
    r.total_revenue += c.total;
    r.profit += c.commission + c.fees;
  }
  return out;
}

/** The owner's figures of one currency (cents). */
export interface OwnerTotals {
  revenue: number;
  profit: number;
  payment_revenue: number;
  payment_profit: number;
}

/**
 * The owner's figures per currency over finalized bills: revenue is what the tenants are
 * billed, profit that minus the station bills (commission, fees, taxes); payment revenue what
 * the tenants paid, payment profit that minus the station bills' share of the paid bills.
 */
export function ownerTotals(
  facts: BillFacts,
  shares: Map<string, PaidShare>,
): Map<string, OwnerTotals> {
  const out = new Map<string, OwnerTotals>();
  const of = (currency: string) => {
    let r = out.get(currency);
    if (!r) out.set(currency, r = { revenue: 0, profit: 0, payment_revenue: 0, payment_profit: 0 });
    return r;
  };
  for (const u of facts.units) {
    if (!u.finalized) continue;
    const r = of(u.currency);
    r.revenue += u.total_cost;
    r.profit += u.total_cost;
    if (u.paid) {
      r.payment_revenue += u.total_cost;
      r.payment_profit += u.total_cost;
    }
  }
  for (const c of facts.customers) {
    if (!c.finalized) continue;
    const r = of(c.currency);
    const s = shareOf(shares, c);
    r.profit -= c.total;
    r.payment_profit -= s.commission + s.fees + s.tax;
  }
  return out;
}
