/**
 * Mexican federal holidays (Ley Federal del Trabajo, art. 74), the days that do not count as
 * business days when a bill's due date is set (legal terms: invoices payable within 10
 * business days). Pure: no clock, no I/O.
 *
 * The statutory days: 1 January; the first Monday of February; the third Monday of March;
 * 1 May; 16 September; 1 October of each year in which the federal executive takes office
 * (every six years from 2024); the third Monday of November; 25 December.
 */
import { type DateParts, formatDate } from "./periods.ts";

/** The `n`-th Monday (1-based) of a month, as its day of the month. */
function nthMonday(year: number, month: number, n: number): number {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay(); // 0 Sunday .. 6 Saturday
  const firstMonday = 1 + ((8 - first) % 7);
  return firstMonday + 7 * (n - 1);
}

/** The federal holidays of a year, oldest first. */
export function mexicanHolidays(year: number): DateParts[] {
  const days: DateParts[] = [
    { year, month: 1, day: 1 },
    { year, month: 2, day: nthMonday(year, 2, 1) },
    { year, month: 3, day: nthMonday(year, 3, 3) },
    { year, month: 5, day: 1 },
    { year, month: 9, day: 16 },
  ];
  if (year >= 2024 && (year - 2024) % 6 === 0) days.push({ year, month: 10, day: 1 });
  days.push({ year, month: 11, day: nthMonday(year, 11, 3) }, { year, month: 12, day: 25 });
  return days;
}

const cache = new Map<number, Set<string>>();

/** Whether a date is a Mexican federal holiday. */
export function isMexicanHoliday(d: DateParts): boolean {
  let set = cache.get(d.year);
  if (!set) cache.set(d.year, set = new Set(mexicanHolidays(d.year).map(formatDate)));
  return set.has(formatDate(d));
}

/** Whether a date is a business day: Monday to Friday and not a federal holiday. */
export function isBusinessDay(d: DateParts): boolean {
  const wd = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return wd !== 0 && wd !== 6 && !isMexicanHoliday(d);
}
