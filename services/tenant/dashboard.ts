/**
 * The tenant dashboard (spec 001 section 2, "Tenant dashboard"): current usage, today's and this
 * month's energy, the estimated cost of this month, one of the three charts, the units and the
 * three most recent bills. Its store reads run together, not one unit after another.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { estimateBill } from "../../core/tenant_estimate.ts";
import { type TenantUnit, tenantUnits } from "./units.ts";
import { dashboardSeries, type SeriesPoint, unitEnergy, unitNow } from "./usage.ts";
import { ZoneCache } from "./zone.ts";
import { type TenantBillRow, tenantBillRows } from "./bills.ts";

/** Chart tabs of the dashboard (spec 001 section 4: power, consumption, monthly). */
export const DASHBOARD_CHARTS = ["power", "consumption", "monthly"] as const;
/** A chart tab. */
export type DashboardChart = typeof DASHBOARD_CHARTS[number];

/** Everything the dashboard shows. */
export interface TenantDashboard {
  units: TenantUnit[];
  cards: {
    currentKw: number;
    todayKwh: number;
    monthKwh: number;
    /** Estimated cost of this month's energy so far, cents. */
    estimatedCostCents: number;
    currency: string;
  };
  chart: { mode: DashboardChart; points: SeriesPoint[] };
  recentBills: TenantBillRow[];
}

/** The tenant dashboard with the chart of `mode`. */
export async function tenantDashboard(
  deps: Deps,
  user: User,
  mode: DashboardChart,
): Promise<TenantDashboard> {
  const units = await tenantUnits(deps, user);
  const zones = new ZoneCache(deps);
  const series = ({ power: "power", consumption: "daily", monthly: "monthly" } as const)[mode];
  // Every store read at once: each unit's live values, energy and zone, the chart, the bills.
  const [perUnit, points, bills] = await Promise.all([
    Promise.all(
      units.map((u) => Promise.all([unitNow(deps, u), unitEnergy(deps, u), zones.zone(u)])),
    ),
    dashboardSeries(deps, units, series),
    tenantBillRows(deps, user, {}),
  ]);
  let currentKw = 0;
  let todayKwh = 0;
  let monthKwh = 0;
  let cost = 0;
  let currency: string | null = null;
  for (const [now, energy, zone] of perUnit) {
    currentKw += now.power;
    todayKwh += energy.todayKwh;
    monthKwh += energy.monthKwh;
    const est = estimateBill(zone, energy.monthKwhExact, energy.month);
    cost += est.total_cost;
    currency ??= est.currency;
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    units,
    cards: {
      currentKw: r2(currentKw),
      todayKwh: r2(todayKwh),
      monthKwh: r2(monthKwh),
      estimatedCostCents: cost,
      currency: currency ?? (await zones.view(units[0]))?.currency ?? "MXN",
    },
    chart: { mode, points },
    recentBills: bills.slice(0, 3),
  };
}
