/**
 * Rules of the owner (customer) screens (spec 001 sections 5 and 9): the month choices of the
 * installation page, the phase split with its 40/35/25 fallback, the uptime threshold and data
 * quality, the number of disconnections listed, the power factor fallback. Pure.
 */
import { monthlyPeriod } from "./periods.ts";

/** Uptime (percent) at or above which data quality is Excellent and no note shows. */
const UPTIME_THRESHOLD = 95;
/** Disconnections listed on the unit page. */
export const LISTED_DISCONNECTIONS = 5;
/** Phase shares A, B, C used when only the total is known. */
const PHASE_FALLBACK = [0.4, 0.35, 0.25] as const;
/** Power factor shown when the meter never sent one (0-1). */
export const POWER_FACTOR_FALLBACK = 0.85;
/** How many months the month selector offers: the current one and the 11 before. */
const MONTH_CHOICES = 12;

/** `YYYY-MM` of the current month and the 11 before it, newest first. */
export function monthChoices(today: { year: number; month: number }): string[] {
  const out: string[] = [];
  for (let i = 0; i < MONTH_CHOICES; i++) {
    const d = new Date(Date.UTC(today.year, today.month - 1 - i, 1));
    out.push(monthlyPeriod(d.getUTCFullYear(), d.getUTCMonth() + 1));
  }
  return out;
}

/**
 * The energy of phases A, B, C: the measured values when any is above 0, else the total split
 * 40/35/25 (3 decimals).
 */
export function phaseSplit(total: number, phases: readonly number[]): number[] {
  if (phases.some((p) => p > 0)) return [0, 1, 2].map((i) => phases[i] ?? 0);
  return PHASE_FALLBACK.map((s) => Math.round(total * s * 1000) / 1000);
}

/** Excellent at 95 % uptime or more, else Good (no uptime known counts as Good). */
export function dataQuality(uptimePercent: number | null): "excellent" | "good" {
  return uptimePercent !== null && uptimePercent >= UPTIME_THRESHOLD ? "excellent" : "good";
}

/** Whether the low-uptime note shows. */
export function lowUptime(uptimePercent: number | null): boolean {
  return uptimePercent !== null && uptimePercent < UPTIME_THRESHOLD;
}

/** The invoice's file name: `invoice_{name}_{month}_{lang}.pdf`, the name made file-safe. */
export function invoiceFileName(name: string, month: string, lang: string): string {
  const safe = name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^\w-]+/g, "_")
    .replace(/^_+|_+$/g, "") || "station";
  return `invoice_${safe}_${month}_${lang}.pdf`;
}

/**
 * The station (customer) bill's invoice number: its period and id, `C-2026-03-000042`, the
 * same each time the invoice is drawn.
 */
export function invoiceNumber(
  bill: { id: number; billing_month: string | null; billing_period: string | null },
): string {
  return `C-${bill.billing_month ?? bill.billing_period ?? ""}-${String(bill.id).padStart(6, "0")}`;
}
