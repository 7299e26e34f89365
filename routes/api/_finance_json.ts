/**
 * Finance figures as the JSON API serves them (spec 001 sections 3 and 7): every amount in
 * currency units with at most 2 decimals; counts and margins (percent) as they are.
 */
import { centsToUnits } from "../../core/money.ts";
import type { BillingBlocks, FinanceOverview, OwnerTotals } from "../../services/finances/mod.ts";

const COUNTS = new Set([
  "total_bills",
  "paid_bills",
  "profit_margin",
  "payment_profit_margin",
  "invoice_count",
  "total_invoices",
  "total_customer_bills",
  "zone_id",
]);

/** A flat record of figures with its amounts (every field but counts and margins) in units. */
export function figuresJson<T extends object>(figures: T): T {
  return Object.fromEntries(
    Object.entries(figures).map(([k, v]) => [
      k,
      typeof v === "number" && !COUNTS.has(k) ? centsToUnits(v) : v,
    ]),
  ) as T;
}

function blocksJson(b: BillingBlocks) {
  return {
    monthly: figuresJson(b.monthly),
    bimonthly: figuresJson(b.bimonthly),
    combined: figuresJson(b.combined),
  };
}

/** One currency's overview for the API. */
export function financeOverviewJson(o: FinanceOverview) {
  return {
    currency: o.currency,
    overview: figuresJson(o.overview),
    unit_billing: blocksJson(o.unit_billing),
    customer_billing: blocksJson(o.customer_billing),
  };
}

/** An owner's per-currency totals for the API. */
export function ownerTotalsJson(totals: Record<string, OwnerTotals>) {
  return Object.fromEntries(Object.entries(totals).map(([c, t]) => [c, figuresJson(t)]));
}
