/**
 * The energy chart's modes and periods: Day / Month / Year / Total, stepping a date in a
 * mode, the words of a period, the URLs of a series and of the dashboard's chart tab, yield
 * in kWh or MWh, and the series as CSV. Shared by the dashboard route, its server-rendered
 * table and the chart island.
 */

/** Chart modes. */
export type EnergyMode = "day" | "month" | "year" | "total";
/** The modes in button order. */
export const ENERGY_MODES: EnergyMode[] = ["day", "month", "year", "total"];

/** A point of the series as the API gives it. */
export interface EnergyPoint {
  timestamp: number;
  label: string;
  energy: number;
  power?: number;
}

/** The date one step before (-1) or after (+1) `date` in `mode` (total does not move). */
export function shiftDate(mode: EnergyMode, date: string, dir: -1 | 1): string {
  const [y, m, d] = date.split("-").map(Number);
  const t = mode === "day"
    ? new Date(Date.UTC(y, m - 1, d + dir))
    : mode === "month"
    ? new Date(Date.UTC(y, m - 1 + dir, 1))
    : mode === "year"
    ? new Date(Date.UTC(y + dir, 0, 1))
    : new Date(Date.UTC(y, m - 1, d));
  return t.toISOString().slice(0, 10);
}

/** The period a mode and date show, as words: 2026-11-21, 2026-11, 2026 or '—'. */
export function periodText(mode: EnergyMode, date: string): string {
  return mode === "day"
    ? date
    : mode === "month"
    ? date.slice(0, 7)
    : mode === "year"
    ? date.slice(0, 4)
    : "";
}

/** The API request of a chart's series (the page preloads the same URL). */
export const seriesUrl = (mode: EnergyMode, date: string) =>
  `/api/measurements?type=power&mode=${mode}&date=${date}`;

/** The dashboard URL of a mode and date. */
export const chartHref = (mode: EnergyMode, date: string) =>
  `/admin?tab=chart&mode=${mode}&date=${date}`;

/** kWh worded in kWh below 1000 and MWh from there. */
export function yieldText(kwh: number, x: { kwh: string; mwh: string }): string {
  return kwh >= 1000 ? `${(kwh / 1000).toFixed(3)} ${x.mwh}` : `${kwh.toFixed(2)} ${x.kwh}`;
}

/** The chart's currency as spec 000 shows it: thousands of pesos, "KMXP". */
export const EARNING_UNIT = "KMXP";

/** The chart's earning in thousands of pesos: `12345.6` → `12.35 KMXP`. */
export function earningText(pesos: number): string {
  return `${(pesos / 1000).toFixed(2)} ${EARNING_UNIT}`;
}

/** The series as CSV (label, ISO time, kWh and, for a day, kW). */
export function seriesCsv(mode: EnergyMode, points: EnergyPoint[]): string {
  const head = mode === "day"
    ? "label,timestamp,energy_kwh,power_kw"
    : "label,timestamp,energy_kwh";
  const rows = points.map((p) =>
    [p.label, new Date(p.timestamp).toISOString(), p.energy.toFixed(2)]
      .concat(mode === "day" ? [(p.power ?? 0).toFixed(2)] : []).join(",")
  );
  return [head, ...rows].join("\n") + "\n";
}
