/**
 * The tenant's insight rules (spec 001 section 5, "Tenant insight rules"; section 9): efficiency
 * from the power factor with its bands, phase imbalance, peak hours, load shifting, the cost
 * opportunity, potential savings, the daily average and the month-over-month trend, with the
 * fallbacks the tenant screens use when a reading is missing (zeros, trend up 0 %). Pure.
 */

/** Efficiency bands: 90 % or more excellent, 80-89 % good, below 80 % low. */
export type EfficiencyBand = "excellent" | "good" | "low";

/** Insight types of the tenant screens. */
type InsightType = "success" | "info" | "warning";

/** A generated tip: its type, the locale key of its text under `tenant.unit_view.insights.tips`. */
export interface Insight {
  type: InsightType;
  key:
    | "efficiency_excellent"
    | "efficiency_good"
    | "efficiency_low"
    | "phase_imbalance"
    | "peak_hours"
    | "load_shifting"
    | "cost_opportunity";
  /** Values of the text: percent, hours (`18:00, 19:00`) or amount in cents. */
  params: Record<string, number | string>;
}

/** A ratio of the largest to the smallest phase power above this is an imbalance. */
const PHASE_IMBALANCE_RATIO = 1.5;
/** An hour above this times the average hourly use is a peak hour. */
const PEAK_FACTOR = 1.5;
/** Daytime use above this times night use earns the load-shifting tip. */
const LOAD_SHIFT_FACTOR = 3;
/** Daytime hours [06, 22) and night hours [00, 05). */
const DAY_HOURS = [6, 22] as const;
const NIGHT_HOURS = [0, 5] as const;
/** The cost tip: efficiency under this percent and a price above this per kWh. */
const COST_TIP_EFFICIENCY = 85;
const COST_TIP_PRICE = 0.1;
/** The cost tip's estimated saving: 15 % of the cost. */
const COST_TIP_SAVING = 0.15;
/** Potential savings assume efficiency plus 0.10, at most 0.95. */
const EFFICIENCY_STEP = 0.1;
const EFFICIENCY_CAP = 0.95;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Efficiency in percent (one decimal) from a power factor (0-1, sign ignored); 0 when the
 * power factor is unknown or not a number (the fallback of a failed reading).
 */
export function efficiencyPercent(powerFactor: number | null | undefined): number {
  if (typeof powerFactor !== "number" || !Number.isFinite(powerFactor)) return 0;
  return round1(Math.min(1, Math.abs(powerFactor)) * 100);
}

/** The band of an efficiency in percent. */
export function efficiencyBand(percent: number): EfficiencyBand {
  return percent >= 90 ? "excellent" : percent >= 80 ? "good" : "low";
}

/**
 * Whether the phases are imbalanced: the largest over the smallest phase power (absolute
 * watts) exceeds 1.5. Needs at least two phases with power above 0; fewer say nothing.
 */
export function phaseImbalance(phasePowers: readonly number[]): boolean {
  const p = phasePowers.map(Math.abs).filter((x) => Number.isFinite(x) && x > 0);
  if (p.length < 2) return false;
  return Math.max(...p) / Math.min(...p) > PHASE_IMBALANCE_RATIO;
}

/** Hours (0-23) whose use is above 1.5 times the average of the 24 hours; none when all are 0. */
export function peakHours(hourly: readonly number[]): number[] {
  if (hourly.length === 0) return [];
  const avg = hourly.reduce((s, x) => s + x, 0) / hourly.length;
  if (avg <= 0) return [];
  return hourly.flatMap((x, h) => (x > PEAK_FACTOR * avg ? [h] : []));
}

const sumHours = (hourly: readonly number[], [a, b]: readonly [number, number]) =>
  hourly.slice(a, b).reduce((s, x) => s + x, 0);

/** Whether daytime use (06-22) exceeds 3 times night use (00-05); false when there is no use. */
export function loadShifting(hourly: readonly number[]): boolean {
  const day = sumHours(hourly, DAY_HOURS);
  return day > 0 && day > LOAD_SHIFT_FACTOR * sumHours(hourly, NIGHT_HOURS);
}

/**
 * The cost opportunity: efficiency (percent, known, i.e. above 0) under 85 and a price above
 * 0.1 per kWh; the saving is 15 % of the cost (cents, rounded). Null when the rule does not hold.
 */
export function costOpportunity(
  efficiency: number,
  pricePerKwh: number,
  costCents: number,
): number | null {
  if (efficiency <= 0 || efficiency >= COST_TIP_EFFICIENCY || pricePerKwh <= COST_TIP_PRICE) {
    return null;
  }
  return Math.round(costCents * COST_TIP_SAVING);
}

/**
 * Potential savings in cents: at an efficiency raised by 0.10 (capped at 0.95), the same work
 * needs `efficiency / improved` of the energy, so the saving is `cost × (1 − eff / improved)`.
 * 0 when the efficiency is unknown (0) or already at the cap.
 */
export function potentialSavings(efficiencyPct: number, costCents: number): number {
  const eff = efficiencyPct / 100;
  if (eff <= 0 || costCents <= 0) return 0;
  const improved = Math.min(eff + EFFICIENCY_STEP, EFFICIENCY_CAP);
  if (improved <= eff) return 0;
  return Math.round(costCents * (1 - eff / improved));
}

/**
 * The daily average of the month so far: its kWh over the days elapsed (the day under way
 * counting as one at least), 2 decimals. Not monthly / 30: on the 10th that read a third of
 * the real use.
 */
export function dailyAverage(soFarKwh: number, elapsedDays: number): number {
  if (!(soFarKwh > 0)) return 0;
  return round2(soFarKwh / Math.max(1, elapsedDays));
}

/**
 * The month's projected kWh from the use so far: per elapsed day times the days of the month
 * (2 decimals); 0 before any time has passed.
 */
export function projectedKwh(soFarKwh: number, elapsedDays: number, daysInMonth: number): number {
  if (!(elapsedDays > 0) || !(soFarKwh > 0)) return 0;
  return round2((soFarKwh / Math.min(elapsedDays, daysInMonth)) * daysInMonth);
}

/** A month-over-month trend: direction and whole percent. */
export interface Trend {
  direction: "up" | "down";
  percent: number;
}

/** The trend of `current` against `previous`; the fallback up 0 % without a previous value. */
export function trendOf(current: number, previous: number): Trend {
  if (!(previous > 0) || !Number.isFinite(current)) return { direction: "up", percent: 0 };
  const percent = Math.round(Math.abs(((current - previous) / previous) * 100));
  // A change that rounds to 0 % is no fall: never "▼ -0 %".
  return { direction: current < previous && percent > 0 ? "down" : "up", percent };
}

/** What the tips are generated from. */
interface InsightInput {
  /** Efficiency in percent; 0 when unknown (no efficiency tip then). */
  efficiency: number;
  /** Latest power of phases A, B, C in watts. */
  phasePowers: readonly number[];
  /** Average use per hour of the day (24 values). */
  hourly: readonly number[];
  /** Price of energy per kWh (the first tier's). */
  pricePerKwh: number;
  /** The month's cost in cents. */
  costCents: number;
}

const hourText = (h: number) => `${String(h).padStart(2, "0")}:00`;

/** The tips of a unit, in a fixed order: efficiency, phases, peaks, load shifting, cost. */
export function generateInsights(x: InsightInput): Insight[] {
  const out: Insight[] = [];
  if (x.efficiency > 0) {
    const band = efficiencyBand(x.efficiency);
    out.push({
      type: band === "excellent" ? "success" : band === "good" ? "info" : "warning",
      key: `efficiency_${band}`,
      params: { percent: x.efficiency },
    });
  }
  if (phaseImbalance(x.phasePowers)) {
    out.push({ type: "warning", key: "phase_imbalance", params: {} });
  }
  const peaks = peakHours(x.hourly);
  if (peaks.length > 0) {
    out.push({
      type: "info",
      key: "peak_hours",
      params: { hours: peaks.map(hourText).join(", ") },
    });
  }
  if (loadShifting(x.hourly)) out.push({ type: "info", key: "load_shifting", params: {} });
  const saving = costOpportunity(x.efficiency, x.pricePerKwh, x.costCents);
  if (saving !== null) {
    out.push({ type: "warning", key: "cost_opportunity", params: { amount: saving } });
  }
  return out;
}
