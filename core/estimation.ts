/**
 * Consumption estimation (spec 001 section 9, "Consumption estimation uses four levels"): the
 * levels, and the extended-range rule shared by the billing run (automatic estimation of a
 * unit without readings) and by recalculation (`method_1_extended_range`).
 *
 * Extended range: the meter's counter delta over a window wider than the period (the period
 * plus one period length before and after it, clamped to now), scaled to the period: delta ×
 * period length / span the readings cover in the window (from the start of the first hour
 * with a reading to the end of the last one). It needs at least one day of coverage. The
 * billing run also needs readings on both sides of the period, so that the counter bridges
 * it; recalculation, chosen by an admin, accepts readings on one side.
 *
 * Pure: no I/O, time is a parameter.
 */
import { bimonthlyPeriod, monthlyPeriod, type Period } from "./periods.ts";

/** The four levels, in the order the billing run tries them (the last one is an admin's). */
const ESTIMATION_LEVELS = [
  "method_1_extended_range",
  "method_2_historical_average",
  "method_3_zone_average",
  "manual_input",
] as const;

/** One of the estimation levels. */
export type EstimationLevel = typeof ESTIMATION_LEVELS[number];

/** The level number (1 to 4) of a method. */
export function levelOf(method: EstimationLevel): number {
  return ESTIMATION_LEVELS.indexOf(method) + 1;
}

/** How many previous periods the historical average looks at. */
export const HISTORY_PERIODS = 3;

/** The `n` periods of the same kind before `period`, newest first. */
export function previousPeriods(period: Period, n: number): string[] {
  const out: string[] = [];
  const step = period.kind === "monthly" ? 1 : 2;
  let year = period.year;
  let month = period.months[0];
  for (let i = 0; i < n; i++) {
    month -= step;
    if (month < 1) {
      month += 12;
      year--;
    }
    out.push(period.kind === "monthly" ? monthlyPeriod(year, month) : bimonthlyPeriod(year, month));
  }
  return out;
}

/** Shortest span of readings the extended range accepts (ms): one day. */
const MIN_COVERAGE_MS = 86_400_000;

const HOUR_MS = 3_600_000;

/** A half-open range of instants [from, to), epoch ms. */
export interface Range {
  from: number;
  to: number;
}

/** The window of the extended range: one period length on each side, never past `now`. */
export function extendedWindow(period: Range, now: number): Range {
  const len = period.to - period.from;
  return { from: period.from - len, to: Math.min(period.to + len, now) };
}

/** What the readings of a window are, from the window's hourly points (bucket starts). */
interface Coverage {
  /** Start of the first hour with a reading, clamped to the window. */
  first: number;
  /** End of the last hour with a reading, clamped to the window. */
  last: number;
  /** Whether some readings lie before the period, and some after it. */
  before: boolean;
  after: boolean;
}

/**
 * The coverage of hourly points (`ts` = start of an hour holding readings) in `window`
 * around `period`, or null without points in the window. Before and after are judged for a
 * period without readings of its own: an hour that starts before the period holds readings
 * before it, one that ends after the period's end holds readings after it.
 */
export function hourlyCoverage(
  points: readonly { ts: number }[],
  window: Range,
  period: Range,
): Coverage | null {
  const inside = points.filter((p) => p.ts >= window.from && p.ts < window.to);
  if (inside.length === 0) return null;
  const firstTs = inside[0].ts, lastTs = inside[inside.length - 1].ts;
  return {
    first: Math.max(firstTs, window.from),
    last: Math.min(lastTs + HOUR_MS, window.to),
    before: firstTs < period.from,
    after: lastTs + HOUR_MS > period.to,
  };
}

/**
 * The extended-range energy of `period` (kWh, rounded to Wh) from the counter delta over the
 * window and the readings' coverage; null when the readings cover less than a day, or (with
 * `bothSides`) when they are not on both sides of the period.
 */
export function extendedRangeEnergy(
  period: Range,
  coverage: Coverage | null,
  windowDelta: number,
  options: { bothSides?: boolean } = {},
): number | null {
  if (!coverage) return null;
  if (options.bothSides && !(coverage.before && coverage.after)) return null;
  const covered = coverage.last - coverage.first;
  if (covered < MIN_COVERAGE_MS) return null;
  return round3(windowDelta * (period.to - period.from) / covered);
}

/** The average of measured energies (kWh, rounded to Wh), or null for none. */
export function averageEnergy(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return round3(values.reduce((s, v) => s + v, 0) / values.length);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
