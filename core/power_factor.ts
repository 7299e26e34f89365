/**
 * The power factor surcharge or bonus of CFE's business tariffs (issue 34; the tariff
 * reference's formulas, checked against published bills):
 *
 * - below the threshold (90 %): surcharge `3/5 × (threshold / FP − 1) × 100` %, at most 120 %;
 * - at or above it: bonus `1/4 × (1 − threshold / FP) × 100` %, at most 2.5 %.
 *
 * The percentage is rounded to 0.1 % (85 % → 3.5 %, 98 % → 2.0 %) and applies to the bill
 * before tax. The period's factor is active over apparent energy. Pure.
 */

/** CFE's usual threshold; 95 % applies to some large load centres since 2024. */
export const DEFAULT_PF_THRESHOLD = 90;
const MAX_SURCHARGE = 120;
const MAX_BONUS = 2.5;

/** A period's power factor adjustment: its factor, the kind and the percentage. */
export interface PowerFactorAdjustment {
  /** The factor in % (2 decimals). */
  factor: number;
  kind: "surcharge" | "bonus";
  /** The percentage of the bill, to 0.1 %. */
  percent: number;
}

/** The power factor in % (2 decimals) of active and apparent energy; null without apparent energy. */
export function powerFactorOf(activeKwh: number, apparentKvah: number): number | null {
  if (!(apparentKvah > 0) || !(activeKwh >= 0)) return null;
  return Math.round(Math.min(1, activeKwh / apparentKvah) * 10_000) / 100;
}

const tenth = (x: number) => Math.round(x * 10) / 10;

/** The adjustment at a factor `fp` (%, > 0) for a threshold (default 90 %). */
export function powerFactorAdjustment(
  fp: number,
  threshold = DEFAULT_PF_THRESHOLD,
): PowerFactorAdjustment {
  if (!(fp > 0)) throw new RangeError(`a power factor must be above 0 %, saw ${fp}`);
  if (fp < threshold) {
    const pct = Math.min(MAX_SURCHARGE, 3 / 5 * (threshold / fp - 1) * 100);
    return { factor: fp, kind: "surcharge", percent: tenth(pct) };
  }
  const pct = Math.min(MAX_BONUS, 1 / 4 * (1 - threshold / fp) * 100);
  return { factor: fp, kind: "bonus", percent: tenth(pct) };
}
