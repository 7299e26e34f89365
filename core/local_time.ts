/**
 * Local calendar arithmetic at a fixed UTC offset (the portal's business time zone; Mexico
 * City is UTC-6 all year). Days, months and years start at local midnight.
 */

/** Minutes east of UTC (Mexico City: -360). */
type OffsetMinutes = number;

const pad = (n: number) => String(n).padStart(2, "0");

/** The local calendar date of an instant: `YYYY-MM-DD`. */
export function localDate(ts: number, offset: OffsetMinutes): string {
  const d = new Date(ts + offset * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Earliest year a date, month or period may name. */
export const FIRST_YEAR = 1970;

/** True for `YYYY-MM` with a year from {@link FIRST_YEAR} to 9999. */
export function isRealMonth(month: string): boolean {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  return m !== null && Number(m[1]) >= FIRST_YEAR && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

/** True for a `YYYY-MM-DD` day that exists on the calendar (no 2026-02-30), from 1970. */
export function isRealDate(date: string): boolean {
  const m = /^(\d{4}-\d{2})-(\d{2})$/.exec(date);
  if (!m || !isRealMonth(m[1])) return false;
  const [y, mo] = m[1].split("-").map(Number);
  const day = Number(m[2]);
  return day >= 1 && day <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** The instant of local midnight starting `YYYY-MM-DD`; RangeError for another shape. */
export function dayStart(date: string, offset: OffsetMinutes): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (
    !m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3]) ||
    new Date(ms).getUTCMonth() !== Number(m[2]) - 1
  ) {
    throw new RangeError(`date must be a real YYYY-MM-DD day, got "${date}"`);
  }
  return ms - offset * 60_000;
}

/** Local midnight of the first day of the month of `YYYY-MM`, and of the month after it. */
export function monthBounds(
  year: number,
  month1: number,
  offset: OffsetMinutes,
): { from: number; to: number } {
  return {
    from: Date.UTC(year, month1 - 1, 1) - offset * 60_000,
    to: Date.UTC(year, month1, 1) - offset * 60_000,
  };
}

/** Local midnight of January 1st of a year, and of the next year. */
export function yearBounds(year: number, offset: OffsetMinutes): { from: number; to: number } {
  return {
    from: Date.UTC(year, 0, 1) - offset * 60_000,
    to: Date.UTC(year + 1, 0, 1) - offset * 60_000,
  };
}

/** The local date and time of an instant to the minute: `YYYY-MM-DD HH:MM`. */
export function localDateTime(ts: number, offset: OffsetMinutes): string {
  return new Date(ts + offset * 60_000).toISOString().slice(0, 16).replace("T", " ");
}

/** The local hour (0-23) of an instant. */
export function localHour(ts: number, offset: OffsetMinutes): number {
  return new Date(ts + offset * 60_000).getUTCHours();
}

/** Local year, month (1-12) and day of an instant. */
export function localParts(
  ts: number,
  offset: OffsetMinutes,
): { year: number; month: number; day: number } {
  const d = new Date(ts + offset * 60_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
