/**
 * The building's own CFE bill against what its units were billed (issue 34, item 5): the owner
 * or an admin enters the station's CFE bill of a period (kWh, kW, amount, its PDF), and the
 * owner's billing page reads the reconciliation: the energy no unit was billed for (common
 * areas, losses) in kWh and in % of CFE's kWh, and the money recovered in % of CFE's amount.
 *
 * Recovered: the tenants' bills over CFE's amount. Net recovered: the tenants' bills less the
 * station bill (what the owner owes the provider: commission, fee, tax) over CFE's amount. The
 * balance is what the owner keeps (negative: pays) after CFE and the provider.
 */
import { z } from "zod";
import { isPeriod } from "./periods.ts";

/** Largest PDF of a CFE bill kept, in bytes. */
export const CFE_PDF_MAX_BYTES = 2 * 1024 * 1024;

/** A station's CFE bill of a period, as stored (amount in cents). */
export interface CfeBill {
  station_id: number;
  period: string;
  /** kWh CFE billed the building. */
  kwh: number;
  /** Demand CFE billed (kW), null when the bill has none (tariffs without demand). */
  kw: number | null;
  /** CFE's amount, cents, MXN. */
  amount: number;
  currency: "MXN";
  /** Where the kWh came from: typed in, or the station's master meter. */
  kwh_source: "entered" | "master_meter";
  /** The bill's PDF, when one was uploaded. */
  pdf: { name: string; size: number; blob: string } | null;
  entered_by: number;
  entered_at: number;
}

/** A number typed in a form (comma or point decimals), at most `decimals` of them. */
function formNumber(decimals: number, max: number) {
  return z.string({ error: "validation.required" }).trim()
    .refine((s) => s !== "", "validation.required")
    .transform((s) => s.replace(",", "."))
    .refine(
      (s) => new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`).test(s),
      decimals === 2 ? "cfe_bill.errors.money" : "cfe_bill.errors.number",
    )
    .transform(Number)
    .refine((n) => n <= max, "cfe_bill.errors.too_large");
}

/** An optional number: empty or left out is null. */
const optionalNumber = (decimals: number, max: number) =>
  z.preprocess(
    (v) => v === undefined || (typeof v === "string" && v.trim() === "") ? null : v,
    formNumber(decimals, max).nullable(),
  );

/**
 * The entered bill (form fields as text): the period, kWh (empty: from the master meter), kW
 * (empty: none), the amount in pesos with at most 2 decimals.
 */
export const cfeBillInputSchema = z.object({
  period: z.string({ error: "validation.required" }).refine(isPeriod, "cfe_bill.errors.period"),
  kwh: optionalNumber(3, 1e9),
  kw: optionalNumber(3, 1e7),
  amount: formNumber(2, 1e10).refine((n) => n > 0, "cfe_bill.errors.amount_positive"),
});
export type CfeBillInput = z.output<typeof cfeBillInputSchema>;

/** True when `bytes` start as a PDF does (`%PDF-`). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = [0x25, 0x50, 0x44, 0x46, 0x2d];
  return bytes.length >= head.length && head.every((b, i) => bytes[i] === b);
}

/** What a unit bill brings to the reconciliation. */
export interface BilledUnit {
  /** kWh billed. */
  kwh: number;
  /** Total of the bill, cents. */
  total: number;
}

/** A period's CFE bill against its unit bills and station bill. */
export interface Reconciliation {
  period: string;
  cfe_kwh: number;
  cfe_kw: number | null;
  /** Cents. */
  cfe_amount: number;
  billed_kwh: number;
  /** CFE kWh no unit was billed for (negative: units were billed more than CFE measured). */
  unbilled_kwh: number;
  /** {@link unbilled_kwh} in % of CFE's kWh; null when CFE billed no kWh. */
  unbilled_pct: number | null;
  /** Cents: the tenants' bills, the station bill. */
  tenants_amount: number;
  station_amount: number;
  /** Tenants' bills over CFE's amount, %. */
  recovered_pct: number;
  /** Tenants' bills less the station bill over CFE's amount, %. */
  net_recovered_pct: number;
  /** Cents: tenants' bills − station bill − CFE's amount. */
  balance: number;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** Reconciles a CFE bill with the period's unit bills and station bills (same currency). */
export function reconcile(
  cfe: Pick<CfeBill, "period" | "kwh" | "kw" | "amount">,
  units: readonly BilledUnit[],
  stationTotals: readonly number[],
): Reconciliation {
  const billed = round(units.reduce((s, u) => s + u.kwh, 0), 3);
  const tenants = units.reduce((s, u) => s + u.total, 0);
  const station = stationTotals.reduce((s, x) => s + x, 0);
  const unbilled = round(cfe.kwh - billed, 3);
  return {
    period: cfe.period,
    cfe_kwh: cfe.kwh,
    cfe_kw: cfe.kw,
    cfe_amount: cfe.amount,
    billed_kwh: billed,
    unbilled_kwh: unbilled,
    unbilled_pct: cfe.kwh > 0 ? round(unbilled / cfe.kwh * 100, 2) : null,
    tenants_amount: tenants,
    station_amount: station,
    recovered_pct: round(tenants / cfe.amount * 100, 2),
    net_recovered_pct: round((tenants - station) / cfe.amount * 100, 2),
    balance: tenants - station - cfe.amount,
  };
}

/** The trend: reconciliations by period, oldest first (at most `last` of them). */
export function reconciliationTrend(
  rows: readonly Reconciliation[],
  last = 12,
): Reconciliation[] {
  return [...rows].sort((a, b) => a.period.localeCompare(b.period)).slice(-last);
}
