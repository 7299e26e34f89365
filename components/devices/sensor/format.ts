/** Formatting shared by the sensor data page's server-rendered parts. */

/** `ms` as local `YYYY-MM-DD HH:MM` at `offsetMinutes` east of UTC. */
export { localDateTime } from "../../../core/local_time.ts";

/** A duration in seconds as `2 d 3 h 5 min` (zero parts left out, at least minutes). */
export function durationText(seconds: number): string {
  const total = Math.max(0, Math.round(seconds / 60));
  const d = Math.floor(total / 1440);
  const h = Math.floor((total % 1440) / 60);
  const m = total % 60;
  const parts: string[] = [];
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m || parts.length === 0) parts.push(`${m} min`);
  return parts.join(" ");
}

/** A number with `digits` decimals in `locale`. */
export function fixed(locale: string, n: number, digits: number): string {
  return n.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The `YYYY-MM` month `delta` months from `month`. */
export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + delta, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}
