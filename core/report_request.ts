/**
 * A report's request as the routes validate it (spec 001 section 7, "Reports"; issue 26):
 * `{reportType, stationId, unitId?, month? | period?, language?}`. Each problem is a locale key,
 * the first one the answer; who may have which report is the service's to decide.
 */
import { z } from "zod";
import { isLanguage, type Language } from "./roles.ts";
import { parsePeriod } from "./periods.ts";

/** The report types of the API. */
export const REPORT_TYPES = ["monthly", "bimester", "customer", "bimester_customer"] as const;
/** One report type. */
export type ReportType = typeof REPORT_TYPES[number];

/** Locale keys of a bad request. */
export const REPORT_INPUT_ERRORS = {
  invalidBody: "reports.errors.invalid_body",
  invalidType: "reports.errors.invalid_report_type",
  invalidStation: "reports.errors.invalid_station",
  invalidUnit: "reports.errors.invalid_unit",
  invalidMonth: "reports.errors.invalid_month",
  invalidPeriod: "reports.errors.invalid_period",
  invalidLanguage: "reports.errors.invalid_language",
} as const;

const E = REPORT_INPUT_ERRORS;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const BIMESTER = /^\d{4}-(01-02|03-04|05-06|07-08|09-10|11-12)$/;
const shortText = z.string({ error: E.invalidBody }).max(16, { error: E.invalidBody });

/** A validated report request (no language: the asker's). */
export interface ReportInput {
  reportType: ReportType;
  stationId: number;
  /** The unit (unit reports only). */
  unitId: string | null;
  /** `YYYY-MM` for monthly types, `YYYY-MM-MM` for bimonthly ones. */
  period: string;
  language: Language | null;
}

/** A report's request: its period by its type, a unit for unit reports, a known language. */
export const reportRequestSchema = z.object({
  reportType: z.enum(REPORT_TYPES, { error: E.invalidType }),
  stationId: z.preprocess(
    (v) => (typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : v),
    z.number({ error: E.invalidStation }).int({ error: E.invalidStation })
      .positive({ error: E.invalidStation }).max(Number.MAX_SAFE_INTEGER, {
        error: E.invalidStation,
      }),
  ),
  unitId: z.string({ error: E.invalidBody }).regex(/^[\w.-]{1,64}$/, { error: E.invalidUnit })
    .optional(),
  month: shortText.optional(),
  period: shortText.optional(),
  language: z.string({ error: E.invalidBody }).max(8, { error: E.invalidBody }).optional(),
}).transform((d, ctx): ReportInput => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  const monthly = d.reportType === "monthly" || d.reportType === "customer";
  const period = monthly ? d.month ?? d.period : d.period ?? d.month;
  if (typeof period !== "string" || !(monthly ? MONTH : BIMESTER).test(period)) {
    return refuse(monthly ? E.invalidMonth : E.invalidPeriod);
  }
  const unit = d.reportType === "monthly" || d.reportType === "bimester";
  if (unit && !d.unitId) return refuse(E.invalidUnit);
  if (d.language !== undefined && !isLanguage(d.language)) return refuse(E.invalidLanguage);
  return {
    reportType: d.reportType,
    stationId: d.stationId,
    unitId: unit ? d.unitId! : null,
    period: parsePeriod(period).text,
    language: (d.language as Language | undefined) ?? null,
  };
});
