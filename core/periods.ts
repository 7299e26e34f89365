/**
 * Billing periods (spec 001 sections 4, 5 and 9): monthly `YYYY-MM` and bimonthly `YYYY-MM-MM`
 * with the six pairs 01-02 … 11-12, period options, the default period, and due dates.
 * Pure: "today" is always a parameter.
 */
import { FIRST_YEAR, monthBounds } from "./local_time.ts";

/** Monthly or bimonthly billing. */
export type PeriodKind = "monthly" | "bimonthly";

/** A parsed period: its kind, year and the months (1-12) it covers. */
export interface Period {
  kind: PeriodKind;
  year: number;
  months: number[];
  /** The canonical text, `YYYY-MM` or `YYYY-MM-MM`. */
  text: string;
}

/** A calendar date without time zone. */
export interface DateParts {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Formats a monthly period `YYYY-MM`. */
export function monthlyPeriod(year: number, month: number): string {
  return `${year}-${pad(month)}`;
}

/** Formats the bimonthly period holding `month`, e.g. (2026, 4) → `2026-03-04`. */
export function bimonthlyPeriod(year: number, month: number): string {
  const first = month % 2 === 1 ? month : month - 1;
  return `${year}-${pad(first)}-${pad(first + 1)}`;
}

/**
 * Parses `YYYY-MM` or `YYYY-MM-MM` (only the pairs 01-02, 03-04, …, 11-12).
 * Throws TypeError for a non-string, RangeError for a malformed period.
 */
export function parsePeriod(text: unknown): Period {
  if (typeof text !== "string") {
    throw new TypeError(`period must be a string, saw ${typeof text}`);
  }
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(text);
  if (!m) {
    throw new RangeError(`period must look like YYYY-MM or YYYY-MM-MM, saw "${text}"`);
  }
  const year = Number(m[1]);
  const first = Number(m[2]);
  if (year < FIRST_YEAR) throw new RangeError(`period year must be ${FIRST_YEAR} or later`);
  if (first < 1 || first > 12) {
    throw new RangeError(`period month must be 01-12, saw "${text}"`);
  }
  if (m[3] === undefined) return { kind: "monthly", year, months: [first], text };
  const second = Number(m[3]);
  if (first % 2 !== 1 || second !== first + 1) {
    throw new RangeError(
      `bimonthly period must be one of 01-02, 03-04, 05-06, 07-08, 09-10, 11-12, saw "${text}"`,
    );
  }
  return { kind: "bimonthly", year, months: [first, second], text };
}

/** True when `text` is a valid monthly or bimonthly period. */
export function isPeriod(text: unknown): boolean {
  try {
    parsePeriod(text);
    return true;
  } catch {
    return false;
  }
}

/** Days in a month of a year (Gregorian). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Every day of a period, in order. */
export function periodDays(period: Period): DateParts[] {
  const days: DateParts[] = [];
  for (const month of period.months) {
    const n = daysInMonth(period.year, month);
    for (let day = 1; day <= n; day++) days.push({ year: period.year, month, day });
  }
  return days;
}

/**
 * Period options of a year (spec 001 section 5, Billing): monthly, twelve months December
 * first; bimonthly, six pairs Nov-Dec down to Jan-Feb. Given `today`, only the periods that
 * have started by then (a future month has nothing to bill or show).
 */
export function periodOptions(kind: PeriodKind, year: number, today?: DateParts): string[] {
  const out: string[] = [];
  const started = (m: number) =>
    !today || year < today.year || (year === today.year && m <= today.month);
  if (kind === "monthly") {
    for (let m = 12; m >= 1; m--) if (started(m)) out.push(monthlyPeriod(year, m));
  } else {
    for (let m = 11; m >= 1; m -= 2) if (started(m)) out.push(bimonthlyPeriod(year, m));
  }
  return out;
}

/**
 * The default period (spec 001 section 4): in the current year the month (or pair) holding
 * today; in any other year December (monthly) or Nov-Dec (bimonthly).
 */
export function defaultPeriod(kind: PeriodKind, selectedYear: number, today: DateParts): string {
  const month = selectedYear === today.year ? today.month : 12;
  return kind === "monthly"
    ? monthlyPeriod(selectedYear, month)
    : bimonthlyPeriod(selectedYear, month);
}

/** The instants [from, to) of a period: local midnight of its first month's 1st to the next. */
export function periodBounds(period: Period, offsetMinutes: number): { from: number; to: number } {
  return {
    from: monthBounds(period.year, period.months[0], offsetMinutes).from,
    to: monthBounds(period.year, period.months[period.months.length - 1], offsetMinutes).to,
  };
}

/** Formats a date `YYYY-MM-DD`. */
export function formatDate(d: DateParts): string {
  return `${String(d.year).padStart(4, "0")}-${pad(d.month)}-${pad(d.day)}`;
}

/**
 * The date `count` business days after `from`, where `isBusinessDay` says which days count
 * (Monday to Friday by default; billing passes core/holidays.ts's calendar, which also skips
 * the Mexican federal holidays). Throws RangeError for a negative or fractional count or an
 * impossible date.
 */
export function addBusinessDays(
  from: DateParts,
  count = 10,
  isBusinessDay: (d: DateParts) => boolean = weekday,
): DateParts {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`business day count must be a whole number ≥ 0, saw ${count}`);
  }
  const date = new Date(Date.UTC(from.year, from.month - 1, from.day));
  if (
    date.getUTCFullYear() !== from.year || date.getUTCMonth() !== from.month - 1 ||
    date.getUTCDate() !== from.day
  ) {
    throw new RangeError(`not a calendar date: ${JSON.stringify(from)}`);
  }
  let left = count;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const d = {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
    };
    if (isBusinessDay(d)) left--;
  }
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function weekday(d: DateParts): boolean {
  const wd = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return wd !== 0 && wd !== 6;
}

const PAIR_KEYS = ["jan_feb", "mar_apr", "may_jun", "jul_aug", "sep_oct", "nov_dec"];

/**
 * A period worded by `t` (`March 2026`, `Mar-Apr 2026`) with the `billing.periods.*` texts;
 * the text itself when it is not a period. `inText` words it as inside a sentence
 * ("noviembre 2026", "Nov–Dic 2026").
 */
export function periodLabel(
  t: (key: string, params?: Record<string, string | number>) => string,
  text: string,
  inText = false,
): string {
  try {
    const p = parsePeriod(text);
    if (p.kind === "monthly") {
      const m = String(p.months[0]).padStart(2, "0");
      return t("billing.periods.monthly_label", {
        month: t(`billing.periods.${inText ? "months_in_text" : "months"}.m${m}`),
        year: p.year,
      });
    }
    return t("billing.periods.bimonthly_label", {
      months: t(
        `billing.periods.${inText ? "bimonthly_in_text" : "bimonthly"}.${
          PAIR_KEYS[(p.months[0] - 1) / 2]
        }`,
      ),
      year: p.year,
    });
  } catch {
    return text;
  }
}
