/**
 * The owner's dashboard (spec 001 section 2, "Customer dashboard"; section 9): current power,
 * today's, this month's and all-time energy of the owner's meters, one of the three charts (24
 * hourly points of power in kW, the last 7 days, the last 6 months) and the installations.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { overview } from "../measurements.ts";
import { dashboardSeries, type SeriesPoint } from "../tenant/usage.ts";
import { type OwnerStation, ownerStations } from "./stations.ts";
import { listDeviceViews } from "../devices/mod.ts";

/** Chart modes of the dashboard: 24h power, 7-day energy, 6-month trend. */
export const OWNER_CHARTS = ["power", "energy", "trend"] as const;
/** A chart mode. */
export type OwnerChart = typeof OWNER_CHARTS[number];

/** Everything the dashboard shows. */
export interface OwnerDashboard {
  energy: {
    currentKw: number;
    todayKwh: number;
    /** This month's energy in MWh, 3 decimals. */
    monthMwh: number;
    /** All-time energy in MWh, 3 decimals. */
    totalMwh: number;
  };
  chart: { mode: OwnerChart; points: SeriesPoint[] };
  stations: OwnerStation[];
}

const mwh = (kwh: number) => Math.round(kwh) / 1000;

/** The dashboard of the caller with the chart of `mode`. */
export async function ownerDashboard(
  deps: Deps,
  user: User,
  mode: OwnerChart,
): Promise<OwnerDashboard> {
  const series = ({ power: "power", energy: "daily", trend: "monthly" } as const)[mode];
  // The stations, the figures and the chart's readings at once.
  const [stations, views, ov] = await Promise.all([
    ownerStations(deps, user),
    listDeviceViews(deps, user, { type: "sensor", customer_id: user.id }),
    overview(deps, user),
  ]);
  const ids = new Set(stations.map((s) => s.station.id));
  const meters = views.filter((s) => s.parent_id !== null && ids.has(s.parent_id));
  const points = await dashboardSeries(deps, meters, series);
  return {
    energy: {
      currentKw: ov.currentPower,
      todayKwh: ov.todayYield,
      monthMwh: mwh(ov.monthlyYield),
      totalMwh: mwh(ov.totalYield),
    },
    chart: { mode, points },
    stations,
  };
}
