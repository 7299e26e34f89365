/**
 * The input of the billing use cases, as the routes validate it (issue 26): a billing run's
 * `{period, zone_id}`, a recalculation's `{override_reason, recalculation_method,
 * energy_consumption?}` and a payment an admin records `{method, payment_date, reference?,
 * note?}`. Messages are locale keys; the rules that need the store or the clock (a period not
 * started, a payment dated in the future) stay with the services.
 */
import { z } from "zod";
import { isPeriod, parsePeriod, type Period } from "./periods.ts";
import { CONSUMPTION_ERRORS, parseConsumptionInput } from "./consumption_input.ts";
import { isRealDate } from "./local_time.ts";

/** Locale keys of a billing run's bad input. */
export const RUN_INPUT_ERRORS = {
  invalidPeriod: "billing.errors.invalid_period",
  invalidZone: "billing.errors.invalid_zone",
} as const;

/** A billing period's text parsed (`YYYY-MM` or `YYYY-MM-MM`), or an issue with its reason. */
export const periodField = z.unknown().transform((v, ctx): Period => {
  try {
    return parsePeriod(v);
  } catch (e) {
    ctx.addIssue({
      code: "custom",
      message: RUN_INPUT_ERRORS.invalidPeriod,
      params: { detail: (e as Error).message },
    });
    return z.NEVER;
  }
});

/** A zone id: a positive integer, or its digits. */
export const zoneIdField = z.unknown().transform((v, ctx): number => {
  const n = typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : v;
  if (typeof n === "number" && Number.isSafeInteger(n) && n > 0) return n;
  ctx.addIssue({
    code: "custom",
    message: RUN_INPUT_ERRORS.invalidZone,
    params: { detail: `zone_id must be a positive integer, saw ${JSON.stringify(v)}` },
  });
  return z.NEVER;
});

/** A billing run's body (the period first: a bad one is the error named). */
export const billingRunSchema = z.object({ period: periodField, zone_id: zoneIdField });

/** Locale keys of a bill list's bad query. */
export const BILL_QUERY_ERRORS = {
  invalidQuery: "billing.errors.invalid_query",
  invalidPeriod: RUN_INPUT_ERRORS.invalidPeriod,
} as const;

const listId = z.union([z.literal(""), z.string().regex(/^\d{1,15}$/)]).optional();

/** The query of a bill list as sent: every value text, the ids digits. */
const billListShape = z.object({
  station_id: listId,
  billing_month: z.string().optional(),
  billing_period: z.string().optional(),
  unit_id: z.union([z.literal(""), z.string().regex(/^[\w.-]{1,64}$/)]).optional(),
});

/** A bill list's filter: the station, the period (its text) and the unit, each or none. */
export interface BillListFilter {
  station_id: number | null;
  period: string | null;
  unit_id: string | null;
}

/**
 * A bill list's query (`?station_id=&billing_month=` for monthly bills, `billing_period=` for
 * bimonthly ones, `unit_id=`): a malformed query is refused as a whole (the issue of `_`), a
 * period of the other kind naming its field.
 */
export const billListQuerySchema = z.unknown().transform((q, ctx): BillListFilter => {
  const shape = billListShape.safeParse(q);
  if (!shape.success) {
    ctx.addIssue({ code: "custom", message: BILL_QUERY_ERRORS.invalidQuery });
    return z.NEVER;
  }
  const { station_id, billing_month, billing_period, unit_id } = shape.data;
  let period: string | null = null;
  for (const [name, v] of [["billing_month", billing_month], ["billing_period", billing_period]]) {
    if (!v) continue;
    if (!isPeriod(v) || (name === "billing_month") !== (parsePeriod(v).kind === "monthly")) {
      ctx.addIssue({ code: "custom", path: [name!], message: BILL_QUERY_ERRORS.invalidPeriod });
      return z.NEVER;
    }
    period = parsePeriod(v).text;
  }
  return { station_id: station_id ? Number(station_id) : null, period, unit_id: unit_id || null };
});

/** A billing page's export query: its zone, then its period (the first bad one is named). */
export const billExportSchema = z.object({ zone_id: zoneIdField, period: periodField });

/** The recalculation methods of the dialog. */
export const RECALC_METHODS = [
  "method_1_extended_range",
  "method_2_historical_average",
  "method_3_zone_average",
  "manual_input",
] as const;
export type RecalcMethod = typeof RECALC_METHODS[number];

/** Locale keys of a recalculation's bad input. */
export const RECALC_INPUT_ERRORS = {
  invalidBody: "billing.recalculation.errors.invalid_body",
  methodRequired: "billing.recalculation.validation.select_method",
  reasonRequired: "billing.recalculation.validation.reason_required",
  ...CONSUMPTION_ERRORS,
} as const;

/** A validated recalculation request. */
export interface RecalcRequest {
  reason: string;
  method: RecalcMethod;
  /** The manual kWh (manual_input only). */
  kwh: number | null;
}

/**
 * A recalculation's body: every field checked together (the consumption only for a manual
 * input), each problem named by its field, the first one the message.
 */
export const recalcSchema = z.object({
  override_reason: z.unknown().optional(),
  recalculation_method: z.unknown().optional(),
  energy_consumption: z.unknown().optional(),
}).transform((d, ctx): RecalcRequest => {
  const issue = (field: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [field], message });
  const reason = typeof d.override_reason === "string" ? d.override_reason.trim() : "";
  if (reason === "" || reason.length > 2000) {
    issue("override_reason", RECALC_INPUT_ERRORS.reasonRequired);
  }
  const method = RECALC_METHODS.find((m) => m === d.recalculation_method);
  if (!method) issue("recalculation_method", RECALC_INPUT_ERRORS.methodRequired);
  let kwh: number | null = null;
  if (method === "manual_input") {
    const input = parseConsumptionInput(d.energy_consumption);
    if (input.ok) kwh = input.kwh;
    else issue("energy_consumption", input.key);
  }
  return { reason, method: method!, kwh };
});

/** Locale keys of a recorded payment's bad input. */
export const PAYMENT_INPUT_ERRORS = {
  paymentDate: "billing.errors.payment_date_required",
  paymentMethod: "billing.errors.payment_method_required",
  referenceTooLong: "billing.errors.payment_reference_too_long",
  noteTooLong: "billing.errors.payment_note_too_long",
} as const;

const E = PAYMENT_INPUT_ERRORS;

/**
 * A payment received outside the processor, as an admin records it: a real date (not in the
 * future: the service knows today). A reference or note that is not text is answered with the
 * date's message, as the API always has.
 */
export const paymentRecordSchema = z.object({
  method: z.enum(["cash", "transfer"], { error: E.paymentMethod }),
  payment_date: z.string({ error: E.paymentDate }).trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: E.paymentDate })
    .refine(isRealDate, { error: E.paymentDate }),
  reference: z.string({ error: E.paymentDate }).trim().max(100, { error: E.referenceTooLong })
    .optional().default(""),
  note: z.string({ error: E.paymentDate }).trim().max(500, { error: E.noteTooLong }).optional()
    .default(""),
});

/** The validated record of a payment (no reference or note: none). */
export interface PaymentRecord {
  method: "cash" | "transfer";
  payment_date: string;
  reference?: string;
  note?: string;
}
