/** The uptime charts' time labels (browser side, in the browser's time zone). */
import type { UptimeChartsProps } from "./UptimeCharts.tsx";

/** A row's time label: HH:00 for 24 h, MM-DD HH:00 for 7 d, MM-DD for 30 d (browser time). */
export function hourLabel(iso: string, timeframe: UptimeChartsProps["timeframe"]): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  const hh = `${p(d.getHours())}:00`;
  const md = `${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return timeframe === "24h" ? hh : timeframe === "7d" ? `${md} ${hh}` : md;
}
