/**
 * Timer rules (issue 30) as pure functions: silence, a night's or a day's consumption against the
 * unit's own baseline (the median of its earlier nights or days that have data: gaps are left
 * out, not counted as zero), and a certificate's end. Each answers bad or good, and the value.
 */
import type { AlertRule } from "./alert_rules.ts";
import type { Verdict } from "./alerts_eval.ts";

/** Nights in a night rule's baseline. */
export const NIGHT_BASELINE = 14;
/** Days in a daily rule's baseline. */
export const DAY_BASELINE = 30;
/** Fewest earlier nights or days with data before a baseline is trusted. */
export const MIN_BASELINE = 5;
/** Consumption under this (kWh) is never unusual: a baseline near zero would make noise. */
export const MIN_KWH = 0.2;

/** The median of the values that are numbers (null: no data that night or day), or null. */
export function median(values: readonly (number | null)[]): number | null {
  const xs = values.filter((x): x is number => x !== null && Number.isFinite(x)).sort((a, b) =>
    a - b
  );
  if (xs.length === 0) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/**
 * A night's or day's consumption `kwh` against the earlier ones (`history`, null where there was
 * no data): bad above `factor` × their median; null when there is no judging (no reading that
 * night, or too few earlier ones).
 */
export function usageVerdict(
  kwh: number | null,
  history: readonly (number | null)[],
  factor: number,
): Verdict | null {
  if (kwh === null) return null;
  const known = history.filter((x) => x !== null).length;
  const base = median(history);
  if (base === null || known < MIN_BASELINE) return null;
  const bad = kwh > Math.max(base * factor, MIN_KWH);
  return { state: bad ? "bad" : "good", value: kwh };
}

/** A meter silent since `lastSeen` (null: never heard) at `now`. */
export function silenceVerdict(rule: AlertRule, lastSeen: number | null, now: number): Verdict {
  if (lastSeen === null) return { state: "good" }; // never heard from: not a silence, unknown
  const minutes = (now - lastSeen) / 60_000;
  return { state: minutes >= rule.params.minutes ? "bad" : "good", value: Math.floor(minutes) };
}

/** A certificate ending at `notAfter`: bad within the rule's days (30 or 7), value days left. */
export function certificateVerdict(rule: AlertRule, notAfter: number, now: number): Verdict {
  const days = Math.floor((notAfter - now) / 86_400_000);
  return { state: days < rule.params.days ? "bad" : "good", value: days };
}

/**
 * The night window ending on the local day `day` (`YYYY-MM-DD`) as UTC epoch bounds: from
 * `start` o'clock (the evening before when start > end) to `end` o'clock, in a zone `offset`
 * minutes from UTC.
 */
export function nightBounds(
  day: string,
  start: number,
  end: number,
  offsetMinutes: number,
): { from: number; to: number } {
  const midnight = Date.parse(`${day}T00:00:00Z`) - offsetMinutes * 60_000;
  const from = midnight + (start > end ? start - 24 : start) * 3_600_000;
  return { from, to: midnight + end * 3_600_000 };
}
