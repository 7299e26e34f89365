/**
 * The tenant's consumption (spec 001 section 2, "Tenant consumption"): the overview of every
 * unit this month, and one unit's Overview, Analytics and Insights with its monthly forecast.
 * Costs come from the bills' tariff code (core/tenant_estimate.ts).
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { estimateBill, firstPrice } from "../../core/tenant_estimate.ts";
import type { UnitBillResult } from "../../core/tariff.ts";
import { parsePeriod } from "../../core/periods.ts";
import { clockOf } from "../platform/clock.ts";
import {
  dailyAverage,
  type EfficiencyBand,
  efficiencyBand,
  efficiencyPercent,
  generateInsights,
  type Insight,
  potentialSavings,
  projectedKwh,
  type Trend,
  trendOf,
} from "../../core/insights.ts";
import { type TenantUnit, tenantUnit, tenantUnits } from "./units.ts";
import {
  energyBetween,
  hourlyAverage,
  monthlySeries,
  type SeriesPoint,
  unitEnergy,
  type UnitNow,
  unitNow,
} from "./usage.ts";
import { ZoneCache } from "./zone.ts";

/** One unit's month. */
interface UnitMonth {
  unit: TenantUnit;
  now: UnitNow;
  monthKwh: number;
  /** Estimated cost of this month's energy so far, cents. */
  costCents: number;
  currency: string;
  /** Percent, 0 when unknown. */
  efficiency: number;
  trend: Trend;
  /** Days of this month so far and its length, its `YYYY-MM`. */
  elapsedDays: number;
  daysInMonth: number;
  month: string;
}

async function unitMonth(deps: Deps, unit: TenantUnit, zones: ZoneCache): Promise<UnitMonth> {
  const [now, energy, zone] = await Promise.all([
    unitNow(deps, unit),
    unitEnergy(deps, unit),
    zones.zone(unit),
  ]);
  const est = estimateBill(zone, energy.monthKwhExact, energy.month);
  return {
    unit,
    now,
    monthKwh: energy.monthKwh,
    costCents: est.total_cost,
    currency: est.currency,
    efficiency: efficiencyPercent(now.powerFactor),
    trend: trendOf(energy.monthKwh, energy.lastMonthSameSpanKwh),
    elapsedDays: energy.elapsedDays,
    daysInMonth: energy.daysInMonth,
    month: energy.month,
  };
}

/** The consumption overview: totals and one card per unit. */
export interface ConsumptionOverview {
  units: UnitMonth[];
  totals: {
    units: number;
    monthKwh: number;
    costCents: number;
    currency: string;
    /** Mean efficiency of the units whose efficiency is known, 0 otherwise. */
    averageEfficiency: number;
  };
}

/** The caller's consumption this month. */
export async function consumptionOverview(deps: Deps, user: User): Promise<ConsumptionOverview> {
  const zones = new ZoneCache(deps);
  const units: UnitMonth[] = [];
  for (const u of await tenantUnits(deps, user)) units.push(await unitMonth(deps, u, zones));
  const known = units.filter((u) => u.efficiency > 0);
  return {
    units,
    totals: {
      units: units.length,
      monthKwh: Math.round(units.reduce((s, u) => s + u.monthKwh, 0) * 100) / 100,
      costCents: units.reduce((s, u) => s + u.costCents, 0),
      currency: units[0]?.currency ?? "MXN",
      averageEfficiency: known.length
        ? Math.round((known.reduce((s, u) => s + u.efficiency, 0) / known.length) * 10) / 10
        : 0,
    },
  };
}

/** One unit: its month, the trend chart, the hourly analytics, the tips and the forecast. */
export interface UnitDetail extends UnitMonth {
  band: EfficiencyBand | null;
  dailyAverageKwh: number;
  /** Energy of the last 6 months, this month last. */
  trendSeries: SeriesPoint[];
  /** Average kWh per hour of the day over the last 7 days (24 values). */
  hourly: number[];
  insights: Insight[];
  forecast: { projectedKwh: number; projectedCostCents: number; potentialSavingsCents: number };
}

/** One of the caller's units in full; not found when it is not theirs. */
export async function unitDetail(deps: Deps, user: User, id: number): Promise<UnitDetail> {
  const unit = await tenantUnit(deps, user, id);
  const zones = new ZoneCache(deps);
  const m = await unitMonth(deps, unit, zones);
  const zone = await zones.zone(unit);
  const [trendSeries, hourly] = await Promise.all([
    monthlySeries(deps, [unit]),
    hourlyAverage(deps, unit),
  ]);
  const projected = projectedKwh(m.monthKwh, m.elapsedDays, m.daysInMonth);
  const projectedCost = estimateBill(zone, projected, m.month).total_cost;
  return {
    ...m,
    band: m.efficiency > 0 ? efficiencyBand(m.efficiency) : null,
    dailyAverageKwh: dailyAverage(m.monthKwh, m.elapsedDays),
    trendSeries,
    hourly,
    insights: generateInsights({
      efficiency: m.efficiency,
      phasePowers: m.now.phasePowers,
      hourly,
      pricePerKwh: firstPrice(zone, m.month),
      costCents: m.costCents,
    }),
    forecast: {
      projectedKwh: projected,
      projectedCostCents: projectedCost,
      potentialSavingsCents: potentialSavings(m.efficiency, projectedCost),
    },
  };
}

/**
 * The estimate of one of the caller's units for a period (`YYYY-MM` or `YYYY-MM-MM`): the
 * period's measured energy priced by the unit's zone (or the fallback tariff). For a finished
 * period it equals the period's bill.
 */
export async function unitPeriodEstimate(
  deps: Deps,
  user: User,
  id: number,
  period: string,
): Promise<UnitBillResult> {
  const unit = await tenantUnit(deps, user, id);
  const p = parsePeriod(period);
  const { from, to } = clockOf(deps).periodBounds(p);
  const zone = await new ZoneCache(deps).zone(unit);
  return estimateBill(zone, await energyBetween(deps, unit, from, to), p.text);
}
