/**
 * The admin's finances (spec 001 sections 2, 3 and 7; issue 14): the overview of one currency
 * (or of each), the bimonthly trend and the zones' performance, from the finalized bills as
 * they are now. The arithmetic is core/finances.ts's; amounts stay in cents.
 */
import type { Deps } from "../deps.ts";
import {
  type FactFilter,
  type FinanceOverview,
  financeOverview,
  paidShares,
  revenueBy,
  selectFacts,
} from "../../core/finances.ts";
import { bimonthlyPeriod, parsePeriod } from "../../core/periods.ts";
import { readBillFacts } from "../../db/bill_facts.ts";
import { listZones } from "../../db/zones.ts";

/** The admin's overview: one currency, or every currency that has bills. */
export interface AdminOverview {
  /** The currency asked, or null for all. */
  currency: string | null;
  /** The overview of each currency with bills (the asked one always). */
  by_currency: FinanceOverview[];
}

/** The admin's overview of finalized bills passing `q` (spec 001 section 3). */
export async function adminOverview(deps: Deps, q: FactFilter): Promise<AdminOverview> {
  const facts = selectFacts(await readBillFacts(deps.kv), q);
  const shares = paidShares(facts);
  const currencies = q.currency !== undefined ? [q.currency] : currenciesOf(facts.units);
  return {
    currency: q.currency ?? null,
    by_currency: currencies.map((c) => financeOverview(facts, shares, c)),
  };
}

/** The currencies of some bills, the one with the most bills first (MXN when none). */
function currenciesOf(units: readonly { currency: string }[]): string[] {
  const n = new Map<string, number>();
  for (const u of units) n.set(u.currency, (n.get(u.currency) ?? 0) + 1);
  const out = [...n].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c);
  return out.length ? out : ["MXN"];
}

/** One period of the bimonthly trend, or one zone's performance (cents). */
export interface RevenueRow {
  currency: string;
  total_revenue: number;
  profit: number;
}

/**
 * Revenue and profit per bimonthly period (monthly bills counted in the pair holding their
 * month), oldest first, per currency.
 */
export async function bimonthlyData(
  deps: Deps,
  q: FactFilter,
): Promise<(RevenueRow & { period: string })[]> {
  const facts = selectFacts(await readBillFacts(deps.kv), q);
  const rows = revenueBy(facts, (f) => {
    const p = parsePeriod(f.period);
    return bimonthlyPeriod(p.year, p.months[0]);
  });
  return [...rows.values()]
    .map(({ key, ...r }) => ({ period: key, ...r }))
    .sort((a, b) => a.period.localeCompare(b.period) || a.currency.localeCompare(b.currency));
}

/** Revenue and profit per zone, the largest revenue first, per currency. */
export async function zonesPerformance(
  deps: Deps,
  q: FactFilter,
): Promise<(RevenueRow & { zone_id: number; zone_name: string })[]> {
  const facts = selectFacts(await readBillFacts(deps.kv), q);
  const names = new Map((await listZones(deps.kv)).map((z) => [z.id, z.name]));
  const rows = revenueBy(facts, (f) => String(f.zone_id));
  return [...rows.values()]
    .map(({ key, ...r }) => ({
      zone_id: Number(key),
      zone_name: names.get(Number(key)) ?? `#${key}`,
      ...r,
    }))
    .sort((a, b) => b.total_revenue - a.total_revenue || a.zone_name.localeCompare(b.zone_name));
}
