/**
 * The owner's finances at a glance (`/customer/finances`): what their tenants were billed and
 * paid, what is pending, and what they owe the provider (commission, fees, tax), in all and by
 * period. The same aggregation as the admin's finances and the owner's billing overview
 * (`summarize` over the bills' facts); cents, the owner's main currency.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { type PeriodSummary, summarize } from "../../core/finances.ts";
import { readStationFacts } from "../../db/bill_facts.ts";
import { ownerBillingType, ownStations } from "./owner.ts";

/** One period's figures (or the whole), cents. */
export interface OwnerFigures {
  /** What the tenants were billed, paid, and what they still owe. */
  billed: number;
  paid: number;
  pending: number;
  /** What the owner owes the provider: commission, fees, tax, and their sum. */
  commission: number;
  fees: number;
  tax: number;
  owed: number;
  /** Unit bills, and those paid. */
  bills: number;
  paid_bills: number;
}

/** The owner's figures in their main currency: in all, and per period (newest first). */
export interface OwnerFinances {
  currency: string;
  total: OwnerFigures;
  periods: ({ period: string } & OwnerFigures)[];
}

function figuresOf(rows: readonly PeriodSummary[]): OwnerFigures {
  const sum = (f: (r: PeriodSummary) => number) => rows.reduce((n, r) => n + f(r), 0);
  const billed = sum((r) => r.total_cost);
  const paid = sum((r) => r.paid_total);
  return {
    billed,
    paid,
    pending: billed - paid,
    commission: sum((r) => r.commission),
    fees: sum((r) => r.fees),
    tax: sum((r) => r.customer_tax),
    owed: sum((r) => r.customer_total),
    bills: sum((r) => r.units),
    paid_bills: sum((r) => r.paid_units),
  };
}

/** The caller's figures (finalized bills of every period), in their main currency. */
export async function ownerFinances(deps: Deps, user: User): Promise<OwnerFinances> {
  const type = await ownerBillingType(deps, user);
  const all = summarize(await readStationFacts(deps.kv, await ownStations(deps, user)));
  const currencies = [...new Set(all.map((r) => r.currency))].sort();
  const currency = currencies.includes(type.currency) || currencies.length === 0
    ? type.currency
    : currencies[0];
  const rows = all.filter((r) => r.currency === currency);
  const periods = [...new Set(rows.map((r) => r.period))].sort().reverse();
  return {
    currency,
    total: figuresOf(rows),
    periods: periods.map((period) => ({
      period,
      ...figuresOf(rows.filter((r) => r.period === period)),
    })),
  };
}
