/**
 * The one way a use case says no (issue 10): a {@link Refusal} names what kind of no it is and
 * the locale key of its message, with field errors (locale keys too) for invalid input. Services
 * throw it and know nothing of HTTP; `routes/_refusal.ts` maps the kinds to status codes, JSON
 * answers and error pages in one place. A refusal changes nothing: services throw it before
 * they write.
 */

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

/** The caller may not do this. */
export function forbidden(key = "errors.forbidden", detail?: string): Refusal {
  return new Refusal("forbidden", key, {}, detail);
}

/** Something the use case depends on (a broker, a payment processor) did not answer or said no. */
export const unavailable = refusalOf("unavailable");
