/**
 * The tenant-side estimate (spec 001 section 9): base tariff plus tiered energy (seasonal
 * prices, a winter window that may wrap the year end), compensation for industrial tariffs and
 * tax over the total, in cents. It is the bills' own tariff code ({@link computeUnitBill}), so
 * the estimate of a finished month equals its bill. Without a zone the fallback tariff applies:
 * 0.12 per kWh in EUR. Pure.
 */
import { computeUnitBill, type UnitBillResult } from "./tariff.ts";
import { defaultZone, type Zone } from "./zone.ts";

/** The fallback tariff when no zone is available: 0.12 per kWh in EUR. */
const FALLBACK_PRICE_PER_KWH = 0.12;
/** Currency of the fallback tariff. */
const FALLBACK_CURRENCY = "EUR";

/** The zone the fallback tariff stands for: a flat 0.12 per kWh in EUR, no base, no tax. */
export function fallbackZone(): Zone {
  return {
    ...defaultZone("fallback"),
    currency: FALLBACK_CURRENCY,
    price_low: FALLBACK_PRICE_PER_KWH,
  };
}

/** Energy as billing reads it: kWh rounded to 3 decimals. */
function billedKwh(kwh: number): number {
  return Math.round(Math.max(0, kwh) * 1000) / 1000;
}

/**
 * The estimated bill of `kwh` in `period` (`YYYY-MM` or `YYYY-MM-MM`) with `zone`, or with the
 * fallback tariff when `zone` is null. Amounts in cents.
 */
export function estimateBill(zone: Zone | null, kwh: number, period: string): UnitBillResult {
  return computeUnitBill(zone ?? fallbackZone(), billedKwh(kwh), { period });
}

/** The price per kWh of a zone's first tier in the season of `period` (for the cost tip). */
export function firstPrice(zone: Zone | null, period: string): number {
  const r = estimateBill(zone, 1, period);
  return r.calculation_details[0]?.price ?? 0;
}
