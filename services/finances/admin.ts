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
  passes,
  type PeriodSummary,
  revenueBy,
} from "../../core/finances.ts";
import { bimonthlyPeriod, parsePeriod } from "../../core/periods.ts";
import { readBillSummaries } from "../../db/bill_facts.ts";
import { listZones } from "../../db/zones.ts";

/** The admin's overview: one currency, or every currency that has bills. */
interface AdminOverview {
  /** The currency asked, or null for all. */
  currency: string | null;
  /** The overview of each currency with bills (the asked one always), most bills first. */
  by_currency: FinanceOverview[];
}

async function rowsOf(deps: Deps, q: FactFilter): Promise<PeriodSummary[]> {
  return (await readBillSummaries(deps.kv)).filter((r) => passes(r, q));
}

/** The admin's overview of finalized bills passing `q` (spec 001 section 3). */
export async function adminOverview(deps: Deps, q: FactFilter): Promise<AdminOverview> {
  const rows = await rowsOf(deps, q);
  const currencies = q.currency !== undefined ? [q.currency] : currenciesOf(rows);
  return {
    currency: q.currency ?? null,
    by_currency: currencies.map((c) => financeOverview(rows, c)),
  };
}

/** The currencies of some bills, the one with the most unit bills first (MXN when none). */
function currenciesOf(rows: readonly PeriodSummary[]): string[] {
  const n = new Map<string, number>();
  for (const r of rows) n.set(r.currency, (n.get(r.currency) ?? 0) + r.units);
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
  const rows = revenueBy(await rowsOf(deps, q), (r) => {
    const p = parsePeriod(r.period);
    return bimonthlyPeriod(p.year, p.months[0]);
  });
  return rows
    .map(({ key, ...r }) => ({ period: key, ...r }))
    .sort((a, b) => a.period.localeCompare(b.period) || a.currency.localeCompare(b.currency));
}

/** Revenue and profit per zone, the largest revenue first, per currency. */
export async function zonesPerformance(
  deps: Deps,
  q: FactFilter,
): Promise<(RevenueRow & { zone_id: number; zone_name: string })[]> {
  const names = new Map((await listZones(deps.kv)).map((z) => [z.id, z.name]));
  const rows = revenueBy(await rowsOf(deps, q), (r) => String(r.zone_id));
  return rows
    .map(({ key, ...r }) => ({
      zone_id: Number(key),
      zone_name: names.get(Number(key)) ?? `#${key}`,
      ...r,
    }))
    .sort((a, b) => b.total_revenue - a.total_revenue || a.zone_name.localeCompare(b.zone_name));
}
