/**
 * Manual consumption input of the recalculation dialog (spec 001 section 5, "Recalculation
 * dialog"): spaces removed, commas become dots, every other non-digit stripped; the value must
 * be a number greater than 0 and at most 10,000 kWh. Errors are locale keys.
 */

/** Largest manual consumption accepted, in kWh. */
const MAX_MANUAL_KWH = 10_000;

/** Locale keys of the manual input errors (English text in locales/en/billing.json). */
export const CONSUMPTION_ERRORS = {
  required: "billing.recalculation.validation.consumption_required",
  invalidFormat: "billing.recalculation.validation.invalid_format",
  notPositive: "billing.recalculation.validation.must_be_positive",
  tooHigh: "billing.recalculation.validation.too_high",
} as const;

/** The outcome of {@link parseConsumptionInput}. */
type ConsumptionInput = { ok: true; kwh: number } | { ok: false; key: string };

/** Parses a typed consumption (text, or a number sent as JSON). */
export function parseConsumptionInput(raw: unknown): ConsumptionInput {
  if (raw === undefined || raw === null) return { ok: false, key: CONSUMPTION_ERRORS.required };
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) return { ok: false, key: CONSUMPTION_ERRORS.invalidFormat };
    return bound(raw);
  }
  if (typeof raw !== "string") return { ok: false, key: CONSUMPTION_ERRORS.invalidFormat };
  const text = raw.replace(/\s+/g, "");
  if (text === "") return { ok: false, key: CONSUMPTION_ERRORS.required };
  const cleaned = text.replace(/,/g, ".").replace(/[^\d.]/g, "");
  if (!/^(\d+\.?\d*|\.\d+)$/.test(cleaned)) {
    return { ok: false, key: CONSUMPTION_ERRORS.invalidFormat };
  }
  return bound(Number(cleaned));
}

function bound(kwh: number): ConsumptionInput {
  if (!(kwh > 0)) return { ok: false, key: CONSUMPTION_ERRORS.notPositive };
  if (kwh > MAX_MANUAL_KWH) return { ok: false, key: CONSUMPTION_ERRORS.tooHigh };
  return { ok: true, kwh };
}
