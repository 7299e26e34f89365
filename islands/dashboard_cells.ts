/** The admin dashboard's live figures as text, for the server and the browser alike. */
import type { DashboardLiveTexts, LiveOverview } from "./DashboardLive.tsx";

/** A number with a fixed count of decimals (spec: 2 by default). */
export const fixed = (n: number, digits = 2) => n.toFixed(digits);

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
