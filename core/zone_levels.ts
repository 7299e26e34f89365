/**
 * The rules of the zone form's pricing level editor, the same in the browser and on the
 * server (which answers the no-JavaScript form): up to {@link MAX_LEVELS} levels, the
 * first cannot be removed, a new level's threshold is the previous one plus 100, and
 * turning seasonal on copies the levels into summer and winter with price 0.
 */
import { MAX_LEVELS } from "./zone.ts";
import type { PricingMode } from "./tariff.ts";

/** One level row; values are the texts of the inputs. */
export interface LevelRow {
  price: string;
  threshold: string;
  summer_price: string;
  summer_threshold: string;
  winter_price: string;
  winter_threshold: string;
}

/** The pricing modes. */
export type Mode = PricingMode;
/** The pricing modes in the editor's order. */
export const PRICING_MODES: Mode[] = ["basic", "tiered", "seasonal", "seasonal_tiered"];

/** The editor's values. */
export interface ZoneLevelsValues {
  mode: Mode;
  price_low: string;
  summer_price_low: string;
  winter_price_low: string;
  winter_start_month: string;
  winter_start_day: string;
  winter_end_month: string;
  winter_end_day: string;
  levels: LevelRow[];
}

/** The first level's threshold in a new zone's form (spec 001 section 9; 150 only on submit). */
export const FORM_FIRST_THRESHOLD = 100;

/**
 * The step of a zone form's number field (spec 001 section 9): percentages 0.1, thresholds,
 * kWh limits, months and days 1, prices and other amounts 0.01. Names are the form's
 * (`price_low`, `level_threshold_2`, `winter_start_day`, `customer_commission`, …).
 */
export function fieldStep(name: string): string {
  if (/percentage|commission|customer_tax/.test(name)) return "0.1";
  if (/threshold|_kwh$|_month$|_day$/.test(name)) return "1";
  return "0.01";
}

/**
 * The input attributes of a zone form field: whole numbers (thresholds, months, days) a number
 * field stepping by 1; decimals (prices, percentages) a text field with the decimal keypad, so
 * that a typed "1,5" reaches the server as typed (`core/decimal_input.ts`) instead of being
 * rewritten by the browser's number field (steps of 0.01 and 0.1 cannot apply to it).
 */
export function fieldInput(
  name: string,
): { type: "number"; step: string; min: string; inputMode: "numeric" } | {
  type: "text";
  inputMode: "decimal";
} {
  const step = fieldStep(name);
  return step === "1"
    ? { type: "number", step, min: "0", inputMode: "numeric" }
    : { type: "text", inputMode: "decimal" };
}

/** True for the seasonal modes. */
export const isSeasonal = (m: Mode) => m === "seasonal" || m === "seasonal_tiered";

/** A new level: threshold = previous threshold + 100, prices 0 (also in summer and winter). */
export function addLevel(levels: LevelRow[]): LevelRow[] {
  if (levels.length >= MAX_LEVELS) return levels;
  const prev = levels[levels.length - 1];
  const next = (s: string | undefined) => String((Number(s) || 0) + 100);
  return [...levels, {
    price: "0",
    threshold: next(prev?.threshold),
    summer_price: "0",
    summer_threshold: next(prev?.summer_threshold),
    winter_price: "0",
    winter_threshold: next(prev?.winter_threshold),
  }];
}

/** Removes level `i` (never the first). */
export function removeLevel(levels: LevelRow[], i: number): LevelRow[] {
  return i <= 0 || i >= levels.length ? levels : levels.filter((_, j) => j !== i);
}

/** Turning seasonal on: the levels copied into summer and winter with price 0. */
export function seasonalCopy(v: ZoneLevelsValues): ZoneLevelsValues {
  return {
    ...v,
    summer_price_low: "0",
    winter_price_low: "0",
    levels: v.levels.map((l) => ({
      ...l,
      summer_price: "0",
      summer_threshold: l.threshold,
      winter_price: "0",
      winter_threshold: l.threshold,
    })),
  };
}

/**
 * Price fields of the editor left empty, by error key (`levels.0.price`, `price_low`), for the
 * mode in use: a zone filled from a preset must not save until the operator enters them.
 */
export function emptyPrices(v: ZoneLevelsValues): string[] {
  const empty = (s: string) => s.trim() === "";
  const tiered = v.mode === "tiered" || v.mode === "seasonal_tiered";
  const out: string[] = [];
  if (!tiered) {
    const keys: ("price_low" | "summer_price_low" | "winter_price_low")[] = isSeasonal(v.mode)
      ? ["summer_price_low", "winter_price_low"]
      : ["price_low"];
    return keys.filter((k) => empty(v[k]));
  }
  v.levels.forEach((l, i) => {
    if (isSeasonal(v.mode)) {
      if (empty(l.summer_price)) out.push(`summer_levels.${i}.price`);
      if (empty(l.winter_price)) out.push(`winter_levels.${i}.price`);
    } else if (empty(l.price)) out.push(`levels.${i}.price`);
  });
  return out;
}
