/**
 * What an admin types about a unit's meters (pure): a manual reading (meter index in kWh, the
 * instant, a note) and a meter replacement (new serial, instant, the counters around it), read
 * from a form (local date and time, decimal comma) or a JSON body (an ISO instant or epoch
 * ms), and the rules a manual reading must keep. Errors are locale keys by field.
 */
import { z } from "zod";
import type { FieldErrors } from "./schemas.ts";

/** Longest note of a manual reading. */
const MAX_NOTE_LENGTH = 500;
/** Longest serial number accepted by the replacement form (as the sensor form). */
const MAX_SERIAL_LENGTH = 100;

/** Locale keys of the meter inputs' errors (English text in locales/en/meters.json). */
const METER_INPUT_ERRORS = {
  atRequired: "meters.errors.at_required",
  atInvalid: "meters.errors.at_invalid",
  atFuture: "meters.errors.at_future",
  kwhRequired: "meters.errors.kwh_required",
  kwhInvalid: "meters.errors.kwh_invalid",
  belowPrevious: "meters.errors.kwh_below_previous",
  aboveNext: "meters.errors.kwh_above_next",
  noteTooLong: "meters.errors.note_too_long",
  serialRequired: "meters.errors.serial_required",
} as const;

const E = METER_INPUT_ERRORS;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An instant typed as local date and time (`YYYY-MM-DDTHH:MM[:SS]`, the form's
 * `datetime-local`, in the portal's offset), an ISO instant with its zone, or epoch ms;
 * null when it is none of them.
 */
export function parseInstant(raw: unknown, offsetMinutes: number): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) && raw >= 0 ? Math.round(raw) : null;
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  const m = LOCAL.exec(text);
  if (m) {
    const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
    const utc = Date.UTC(y, mo - 1, d, h, mi, s);
    const back = new Date(utc);
    if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
      return null;
    }
    return utc >= 0 ? utc - offsetMinutes * 60_000 : null;
  }
  if (!ZONED.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** A counter in kWh typed as text (spaces dropped, a decimal comma) or sent as a number. */
export function parseKwh(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) && raw >= 0 ? raw : null;
  if (typeof raw !== "string") return null;
  const text = raw.replace(/\s+/g, "").replace(",", ".");
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && !v.trim());

/** A manual reading as the service takes it. */
interface ManualReadingInput {
  at: number;
  kwh: number;
  note: string;
}

/** The outcome of reading an input: its value, or errors by field. */
type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

function instantField(raw: unknown, offset: number, field: string, errors: FieldErrors) {
  if (blank(raw)) errors[field] = E.atRequired;
  else {
    const at = parseInstant(raw, offset);
    if (at === null) errors[field] = E.atInvalid;
    return at;
  }
  return null;
}

function kwhField(raw: unknown, field: string, errors: FieldErrors, optional = false) {
  if (blank(raw)) {
    if (!optional) errors[field] = E.kwhRequired;
    return null;
  }
  const kwh = parseKwh(raw);
  if (kwh === null) errors[field] = E.kwhInvalid;
  return kwh;
}

/** Reads a manual reading from a form or JSON body (`at`, `kwh`, `note`). */
export function parseManualReading(
  raw: Record<string, unknown>,
  offsetMinutes: number,
): Parsed<ManualReadingInput> {
  const errors: FieldErrors = {};
  const at = instantField(raw.at, offsetMinutes, "at", errors);
  const kwh = kwhField(raw.kwh, "kwh", errors);
  const note = raw.note === undefined || raw.note === null ? "" : raw.note;
  if (typeof note !== "string" || note.trim().length > MAX_NOTE_LENGTH) {
    errors.note = E.noteTooLong;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { at: at!, kwh: kwh!, note: (note as string).trim() } };
}

/** A replacement as the service takes it. */
export interface MeterChangeInput {
  serial_number: string;
  at: number;
  last_kwh: number | null;
  first_kwh: number | null;
}

/** Reads a replacement from a form or JSON body (`serial_number`, `at`, `last_kwh`, `first_kwh`). */
export function parseMeterChange(
  raw: Record<string, unknown>,
  offsetMinutes: number,
): Parsed<MeterChangeInput> {
  const errors: FieldErrors = {};
  const serial = typeof raw.serial_number === "string" ? raw.serial_number.trim() : "";
  if (!serial || serial.length > MAX_SERIAL_LENGTH) errors.serial_number = E.serialRequired;
  const at = instantField(raw.at, offsetMinutes, "at", errors);
  const last = kwhField(raw.last_kwh, "last_kwh", errors, true);
  const first = kwhField(raw.first_kwh, "first_kwh", errors, true);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { serial_number: serial, at: at!, last_kwh: last, first_kwh: first } };
}

/** A refusal of one reading's value against its neighbours: the field, key, and kWh named. */
export interface ReadingRefusal {
  field: string;
  key: string;
  kwh?: number;
}

/**
 * Checks a counter reading typed by hand against the clock and the same meter's readings
 * around it (null where unknown): finite and not negative, not in the future, not below the
 * reading before it nor above the one after it. Answers the first refusal, or null.
 */
export function checkCounterReading(
  r: { at: number; kwh: number },
  now: number,
  around: { prev: number | null; next: number | null },
  fields: { at: string; kwh: string } = { at: "at", kwh: "kwh" },
): ReadingRefusal | null {
  if (!Number.isFinite(r.at) || r.at < 0) return { field: fields.at, key: E.atInvalid };
  if (r.at > now) return { field: fields.at, key: E.atFuture };
  if (!Number.isFinite(r.kwh) || r.kwh < 0) return { field: fields.kwh, key: E.kwhInvalid };
  if (around.prev !== null && r.kwh < around.prev) {
    return { field: fields.kwh, key: E.belowPrevious, kwh: around.prev };
  }
  if (around.next !== null && r.kwh > around.next) {
    return { field: fields.kwh, key: E.aboveNext, kwh: around.next };
  }
  return null;
}

/**
 * The schema of what `parse` reads from a body or form (an object), for the routes' one
 * hook: each field's error an issue on that field, in the order `parse` found them.
 */
function inputSchema<T>(parse: (raw: Record<string, unknown>) => Parsed<T>) {
  return z.record(z.string(), z.unknown()).transform((raw, ctx): T => {
    const parsed = parse(raw);
    if (parsed.ok) return parsed.value;
    for (const [field, message] of Object.entries(parsed.errors)) {
      ctx.addIssue({ code: "custom", path: [field], message });
    }
    return z.NEVER;
  });
}

/** A manual reading's body or form (`at` read in a zone `offsetMinutes` from UTC). */
export const manualReadingSchema = (offsetMinutes: number) =>
  inputSchema((raw) => parseManualReading(raw, offsetMinutes));

/** A meter replacement's body or form (`at` read in a zone `offsetMinutes` from UTC). */
export const meterChangeSchema = (offsetMinutes: number) =>
  inputSchema((raw) => parseMeterChange(raw, offsetMinutes));
