/**
 * The one way a use case says no (issue 10): a {@link Refusal} names what kind of no it is and
 * the locale key of its message, with field errors (locale keys too) for invalid input. Services
 * throw it and know nothing of HTTP; `routes/_refusal.ts` maps the kinds to status codes, JSON
 * answers and error pages in one place. A refusal changes nothing: services throw it before
 * they write.
 */
import { TelemetryUnavailableError } from "../db/telemetry/mod.ts";

/** What kind of no: bad input, a missing thing, a state that forbids it, a role, a dependency. */
export type RefusalKind = "invalid" | "not_found" | "conflict" | "forbidden" | "unavailable";

/** A refused request; `key` and the values of `fields` are locale keys. */
export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly key: string,
    readonly fields: Readonly<Record<string, string>> = {},
    /** What was wrong, for logs and API callers (not translated). */
    readonly detail?: string,
    /** Placeholders of the message. */
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(detail ?? key);
    this.name = "Refusal";
  }
}

/** Invalid input: the first field error is the message unless `key` is given. */
export function invalid(
  fields: Readonly<Record<string, string>>,
  key?: string,
  detail?: string,
): Refusal {
  return new Refusal(
    "invalid",
    key ?? Object.values(fields)[0] ?? "validation.failed",
    fields,
    detail,
  );
}

/** The refusals of one kind that name no field: a key, a detail, the message's placeholders. */
function refusalOf(kind: RefusalKind) {
  return (key: string, detail?: string, params?: Readonly<Record<string, string | number>>) =>
    new Refusal(kind, key, {}, detail, params);
}

/** A thing the request names does not exist (or may not be known to the caller). */
export const notFound = refusalOf("not_found");

/** The thing exists but its state forbids the change. */
export const conflict = refusalOf("conflict");

/** Something the use case depends on (a broker, a payment processor) did not answer or said no. */
export const unavailable = refusalOf("unavailable");

/**
 * A storage failure as the refusal it answers, or null for any other error: the telemetry
 * store cannot answer (`errors.data_unavailable`: pages and the API say data is unavailable
 * rather than show zeros) or the disk is full (`errors.disk_full`). `detail` is a reason code,
 * not the store's message (which names server paths; it goes to the log).
 */
export function storageRefusal(e: unknown): Refusal | null {
  if (e instanceof Refusal) return null;
  if (isDiskFull(e)) return unavailable("errors.disk_full", "disk_full");
  if (e instanceof TelemetryUnavailableError) {
    return unavailable("errors.data_unavailable", "telemetry_unavailable");
  }
  return null;
}

/** Whether an error (or its cause) says the disk is full (SQLite, Deno KV or the system). */
export function isDiskFull(e: unknown): boolean {
  for (let x = e, depth = 0; x instanceof Error && depth < 5; x = x.cause, depth++) {
    if (/database or disk is full|no space left on device|ENOSPC/i.test(x.message)) return true;
  }
  return false;
}
