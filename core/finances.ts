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

/** What the figures need of every bill: where and when it counts, whether it is final. */
export interface BillFactBase {
  station_id: number;
  zone_id: number;
  period: string;
  currency: string;
  finalized: boolean;
}

/** What the figures need of a unit bill (cents). */
export interface UnitFact extends BillFactBase {
  paid: boolean;
  base_tariff: number;
  energy_cost: number;
  compensation_cost: number;
  tax_cost: number;
  total_cost: number;
}

/** What the figures need of a customer (station) bill (cents; rates in percent). */
export interface CustomerFact extends BillFactBase {
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

/**
 * The finalized bills of one station, period and currency summed (cents): the unit bills, the
 * station bill, and the station bill's share of the paid unit bills.
 */
export interface PeriodSummary {
  station_id: number;
  zone_id: number;
  period: string;
  currency: string;
  units: number;
  paid_units: number;
  base_tariff: number;
  energy_cost: number;
  compensation_cost: number;
  tax_cost: number;
  total_cost: number;
  paid_total: number;
  /** Station bills (0 or 1) and whether each of its unit bills is paid. */
  customers: number;
  paid_customers: number;
  commission: number;
  fees: number;
  customer_tax: number;
  customer_total: number;
  paid_commission: number;
  paid_fees: number;
  paid_customer_tax: number;
}

const EMPTY = {
  units: 0,
  paid_units: 0,
  base_tariff: 0,
  energy_cost: 0,
  compensation_cost: 0,
  tax_cost: 0,
  total_cost: 0,
  paid_total: 0,
  customers: 0,
  paid_customers: 0,
  commission: 0,
  fees: 0,
  customer_tax: 0,
  customer_total: 0,
  paid_commission: 0,
  paid_fees: 0,
  paid_customer_tax: 0,
};

/**
 * Sums finalized bills per station, period and currency. The station bill's share of the paid
 * unit bills: commission (its rate) on their energy plus compensation cost, the fee per paid
 * unit, the tax (its rate) on both; it is paid in full when every unit bill is paid.
 */
export function summarize(facts: BillFacts): PeriodSummary[] {
  const out = new Map<string, PeriodSummary>();
  const paidBase = new Map<string, number>();
  const at = (f: UnitFact | CustomerFact) => {
    const k = `${f.station_id}|${f.period}|${f.currency}`;
    let r = out.get(k);
    if (!r) {
      out.set(
        k,
        r = {
          station_id: f.station_id,
          zone_id: f.zone_id,
          period: f.period,
          currency: f.currency,
          ...EMPTY,
        },
      );
    }
    return [k, r] as const;
  };
  for (const u of facts.units) {
    if (!u.finalized) continue;
    const [k, r] = at(u);
    r.units++;
    r.base_tariff += u.base_tariff;
    r.energy_cost += u.energy_cost;
    r.compensation_cost += u.compensation_cost;
    r.tax_cost += u.tax_cost;
    r.total_cost += u.total_cost;
    if (u.paid) {
      r.paid_units++;
      r.paid_total += u.total_cost;
      paidBase.set(k, (paidBase.get(k) ?? 0) + u.energy_cost + u.compensation_cost);
    }
  }
  for (const c of facts.customers) {
    if (!c.finalized) continue;
    const [k, r] = at(c);
    const commission = percentOfCents(paidBase.get(k) ?? 0, c.commission_rate);
    const fees = r.paid_units * c.fee_per_unit;
    r.customers++;
    r.commission += c.commission;
    r.fees += c.fees;
    r.customer_tax += c.tax;
    r.customer_total += c.total;
    r.paid_commission += commission;
    r.paid_fees += fees;
    r.paid_customer_tax += percentOfCents(commission + fees, c.tax_rate);
    if (r.units > 0 && r.paid_units === r.units) r.paid_customers++;
  }
  return [...out.values()];
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
interface OverviewFigures {
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

/** `part / whole` in percent with 2 decimals; 0 when nothing is whole. */
export function marginPercent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The first and last day (`YYYY-MM-DD`) of a period. */
function periodSpan(period: string): [string, string] {
  const p = parsePeriod(period);
  const first = p.months[0], last = p.months[p.months.length - 1];
  const days = new Date(Date.UTC(p.year, last, 0)).getUTCDate();
  return [`${p.year}-${pad(first)}-01`, `${p.year}-${pad(last)}-${pad(days)}`];
}

/** Whether a summary passes the filter (its period overlapping the date range). */
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

const kindOf = (period: string) => period.length === 7 ? "monthly" : "bimonthly";

/** The admin's overview of one currency (spec 001 section 3, "Finance overview"). */
export function financeOverview(
  rows: readonly PeriodSummary[],
  currency: string,
): FinanceOverview {
  const unit = { monthly: { ...ZERO_BLOCK }, bimonthly: { ...ZERO_BLOCK } };
  const cust = { monthly: { ...ZERO_BLOCK }, bimonthly: { ...ZERO_BLOCK } };
  for (const r of rows) {
    if (r.currency !== currency) continue;
    const kind = kindOf(r.period);
    const b = unit[kind];
    b.total_bills += r.units;
    b.paid_bills += r.paid_units;
    b.paid_revenue += r.paid_total;
    b.total_base_tariff += r.base_tariff;
    b.total_energy_cost += r.energy_cost;
    b.total_compensation_cost += r.compensation_cost;
    b.total_tax_cost += r.tax_cost;
    const c = cust[kind];
    c.total_bills += r.customers;
    c.paid_bills += r.paid_customers;
    c.paid_revenue += r.paid_commission + r.paid_fees + r.paid_customer_tax;
    c.total_commission += r.commission;
    c.total_fees += r.fees;
    c.total_tax += r.customer_tax;
    c.paid_commission += r.paid_commission;
    c.paid_fees += r.paid_fees;
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
interface RevenueProfit {
  total_revenue: number;
  profit: number;
}

/**
 * The provider's revenue (unit totals plus station bill totals) and profit (commission plus
 * fees), grouped by `keyOf` and currency.
 */
export function revenueBy(
  rows: readonly PeriodSummary[],
  keyOf: (r: PeriodSummary) => string,
): (RevenueProfit & { key: string; currency: string })[] {
  const out = new Map<string, RevenueProfit & { key: string; currency: string }>();
  for (const r of rows) {
    const key = keyOf(r);
    const id = `${key}|${r.currency}`;
    let g = out.get(id);
    if (!g) out.set(id, g = { key, currency: r.currency, total_revenue: 0, profit: 0 });
    g.total_revenue += r.total_cost + r.customer_total;
    g.profit += r.commission + r.fees;
  }
  return [...out.values()];
}

/** The owner's figures of one currency (cents). */
export interface OwnerTotals {
  revenue: number;
  profit: number;
  payment_revenue: number;
  payment_profit: number;
}

/**
 * The owner's figures per currency: revenue is what the tenants are billed, profit that minus
 * the station bills (commission, fees, taxes); payment revenue what the tenants paid, payment
 * profit that minus the station bills' share of the paid bills.
 */
export function ownerTotals(rows: readonly PeriodSummary[]): Map<string, OwnerTotals> {
  const out = new Map<string, OwnerTotals>();
  for (const r of rows) {
    let t = out.get(r.currency);
    if (!t) {
      out.set(r.currency, t = { revenue: 0, profit: 0, payment_revenue: 0, payment_profit: 0 });
    }
    t.revenue += r.total_cost;
    t.profit += r.total_cost - r.customer_total;
    t.payment_revenue += r.paid_total;
    t.payment_profit += r.paid_total -
      (r.paid_commission + r.paid_fees + r.paid_customer_tax);
  }
  return out;
}
