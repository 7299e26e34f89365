/**
 * High consumption (CFE's DAC, issue 17): a unit whose 12-month moving average of monthly use
 * exceeds its zone's limit is flagged. The average covers the period billed and the periods
 * before it within 12 months (a bimonthly period counts as two months); periods without a bill
 * are left out of both the sum and the months. The operator decides the tariff; this only
 * states the fact and the average.
 */
import type { Period } from "./periods.ts";

/** Months of the moving average. */
const DAC_WINDOW_MONTHS = 12;

/** The fact a bill carries: the average, the months it covers, the limit and whether it is over. */
export interface HighConsumption {
  average_kwh: number;
  months: number;
  limit_kwh: number;
  exceeded: boolean;
}

/** Periods before `period` that the moving average reads (11 months, or 5 bimonthly periods). */
export function dacHistoryLength(period: Period): number {
  return DAC_WINDOW_MONTHS / period.months.length - 1;
}

/**
 * The moving average of `kwh` (this period) and `previous` (the periods before it, null where
 * there is no bill) against `limitKwh`; null when the zone sets no limit (0).
 */
export function highConsumption(
  period: Period,
  kwh: number,
  previous: readonly (number | null)[],
  limitKwh: number,
): HighConsumption | null {
  if (!(limitKwh > 0)) return null;
  const step = period.months.length;
  const known = [kwh, ...previous.slice(0, dacHistoryLength(period))].filter((x): x is number =>
    x !== null
  );
  const months = known.length * step;
  const average_kwh = Math.round(known.reduce((a, b) => a + b, 0) / months * 100) / 100;
  return { average_kwh, months, limit_kwh: limitKwh, exceeded: average_kwh > limitKwh };
}
