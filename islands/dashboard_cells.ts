/**
 * The admin dashboard's live figures (`DashboardLive.tsx`): their data, and as text, for the
 * server and the browser alike.
 */

/** The overview numbers (kW and kWh). */
export interface LiveOverview {
  currentPower: number;
  todayYield: number;
  monthlyYield: number;
  totalYield: number;
  totalCapacity: number;
}

/** The device counts. */
export interface LiveStats {
  stationCount: number;
  sensorCount: number;
  onlineCount: number;
  unitCount: number;
}

/** Texts, translated on the server. */
export interface DashboardLiveTexts {
  stations: string;
  sensors: string;
  online: string;
  units: string;
  energyTitle: string;
  currentPower: string;
  today: string;
  thisMonth: string;
  total: string;
  totalCapacity: string;
  loading: string;
  kw: string;
  kwh: string;
  mwh: string;
  errorLoading: string;
  retry: string;
  /** The error box's heading ("Dashboard Error"), the failed fetches' texts with `{status}`. */
  errorHeading: string;
  fetchOverview: string;
  fetchDevices: string;
  refresh: string;
}

/** The overview after a failed load: every figure back to zero (spec 000 section 8). */
export const ZERO_OVERVIEW: LiveOverview = {
  currentPower: 0,
  todayYield: 0,
  monthlyYield: 0,
  totalYield: 0,
  totalCapacity: 0,
};

/** Props of the island. */
export interface DashboardLiveProps {
  /** Null when the server could not compute it: the island shows '...' and loads it. */
  overview: LiveOverview | null;
  stats: LiveStats;
  texts: DashboardLiveTexts;
}

/** A number with a fixed count of decimals (spec: 2 by default). */
const fixed = (n: number, digits = 2) => n.toFixed(digits);

/** The energy card's cells for an overview (null: loading). */
export function energyCells(o: LiveOverview | null, x: DashboardLiveTexts) {
  const v = (f: (o: LiveOverview) => string) => (o ? f(o) : x.loading);
  return [
    { key: "power", label: x.currentPower, value: v((o) => fixed(o.currentPower)), unit: x.kw },
    { key: "today", label: x.today, value: v((o) => fixed(o.todayYield)), unit: x.kwh },
    {
      key: "month",
      label: x.thisMonth,
      value: v((o) => fixed(o.monthlyYield / 1000, 3)),
      unit: x.mwh,
    },
    { key: "total", label: x.total, value: v((o) => fixed(o.totalYield / 1000, 3)), unit: x.mwh },
  ];
}

/** "Total capacity: 12.00 kW", or nothing while the overview is not known. */
export function capacityText(o: LiveOverview | null, x: DashboardLiveTexts): string {
  return o ? `${x.totalCapacity}: ${fixed(o.totalCapacity)} ${x.kw}` : "";
}
