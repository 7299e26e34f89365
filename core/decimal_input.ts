/**
 * A decimal typed into a money, price or percentage field, read by the same rule as the
 * recalculation dialog's consumption input (spec 001 section 5, `core/consumption_input.ts`):
 * spaces removed and a comma is the decimal separator, so `1,5` is 1.5 and `0,793` is 0.793.
 * What that rule cannot read as one number (`1.234,56`, `1,5,0`, `12abc`, `$5`) is refused,
 * never reinterpreted; so is a comma that may as well separate thousands (`1,500`: 1.5 to the
 * rule, 1500 to a reader in Mexico, where money is written `$1,500.00`). A leading minus is
 * kept so a negative price is refused as such.
 */

/** The outcome of {@link parseDecimalInput}: a number, or whether it was empty or unreadable. */
export type DecimalInput = { ok: true; value: number } | { ok: false; reason: "empty" | "invalid" };

/** Reads a typed decimal (text, or a number sent as JSON). */
export function parseDecimalInput(raw: unknown): DecimalInput {
  if (typeof raw === "number") {
    return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, reason: "invalid" };
  }
  if (raw === undefined || raw === null) return { ok: false, reason: "empty" };
  if (typeof raw !== "string") return { ok: false, reason: "invalid" };
  const text = raw.replace(/\s+/g, "");
  if (text === "") return { ok: false, reason: "empty" };
  // A whole number, a comma and three digits: thousands or decimals, nobody can tell.
  if (/^[-+]?0*[1-9]\d{0,2},\d{3}$/.test(text)) return { ok: false, reason: "invalid" };
  const dotted = text.replace(/,/g, ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(dotted)) return { ok: false, reason: "invalid" };
  return { ok: true, value: Number(dotted) };
}

/**
 * A form field's number: undefined when empty (the default applies), NaN when unreadable (the
 * schema refuses it), else the value.
 */
export function decimalOrEmpty(raw: string): number | undefined {
  const r = parseDecimalInput(raw);
  return r.ok ? r.value : r.reason === "empty" ? undefined : NaN;
}
