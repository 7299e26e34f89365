/**
 * The business clock: now, today, and the bounds of days, months, years and billing periods in
 * the portal's business time zone (a fixed UTC offset). Pure: the instant and the offset are
 * functions read at each call, so a clock follows a clock or configuration replaced later.
 * The arithmetic is core/local_time.ts's and core/periods.ts's.
 */
import {
  dayStart,
  localDate,
  localDateTime,
  localHour,
  localParts,
  monthBounds,
  yearBounds,
} from "./local_time.ts";
import { type DateParts, monthlyPeriod, type Period, periodBounds } from "./periods.ts";

/** Instants [from, to) in epoch milliseconds. */
export interface Bounds {
  from: number;
  to: number;
}

/** Now and the calendar in the business time zone. */
export interface BusinessClock {
  /** The instant, in epoch milliseconds. */
  now(): number;
  /** The business time zone: minutes east of UTC (Mexico City: -360). */
  offsetMinutes(): number;
  /** Today's local date. */
  today(): DateParts;
  /** Today's local date, `YYYY-MM-DD`. */
  todayText(): string;
  /** The local month of now, `YYYY-MM`. */
  month(): string;
  /** The instant of local midnight starting today. */
  todayStart(): number;
  /** The local date of an instant, `YYYY-MM-DD`. */
  localDate(ts: number): string;
  /** The local year, month (1-12) and day of an instant. */
  localParts(ts: number): DateParts;
  /** The local date and time of an instant to the minute, `YYYY-MM-DD HH:MM`. */
  localDateTime(ts: number): string;
  /** The local hour (0-23) of an instant. */
  localHour(ts: number): number;
  /** The instant of local midnight starting `YYYY-MM-DD`; RangeError for another shape. */
  dayStart(date: string): number;
  /** Local midnight of the first of a month (1-12), and of the month after it. */
  monthBounds(year: number, month: number): Bounds;
  /** Local midnight of January 1st of a year, and of the next year. */
  yearBounds(year: number): Bounds;
  /** The instants [from, to) of a billing period. */
  periodBounds(period: Period): Bounds;
}

/** A clock reading `now` and `offsetMinutes` at each call (never kept). */
export function businessClock(now: () => number, offsetMinutes: () => number): BusinessClock {
  const clock: BusinessClock = {
    now,
    offsetMinutes,
    today: () => localParts(now(), offsetMinutes()),
    todayText: () => localDate(now(), offsetMinutes()),
    month: () => {
      const d = clock.today();
      return monthlyPeriod(d.year, d.month);
    },
    todayStart: () => dayStart(clock.todayText(), offsetMinutes()),
    localDate: (ts) => localDate(ts, offsetMinutes()),
    localParts: (ts) => localParts(ts, offsetMinutes()),
    localDateTime: (ts) => localDateTime(ts, offsetMinutes()),
    localHour: (ts) => localHour(ts, offsetMinutes()),
    dayStart: (date) => dayStart(date, offsetMinutes()),
    monthBounds: (year, month) => monthBounds(year, month, offsetMinutes()),
    yearBounds: (year) => yearBounds(year, offsetMinutes()),
    periodBounds: (period) => periodBounds(period, offsetMinutes()),
  };
  return clock;
}
