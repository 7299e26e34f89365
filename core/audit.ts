/**
 * The audit trail's rules: what an entry holds, its time-ordered id, which fields of a change
 * it keeps (before and after of the changed fields only, secrets left out), and the filters
 * of its lists. Pure: the time and the random part of an id are parameters.
 */
import { z } from "zod";

/** What an admin did (and every sign-in as admin). */
export const AUDIT_KINDS = [
  "sign_in",
  "user.create",
  "user.update",
  "user.toggle",
  "user.delete",
  "zone.create",
  "zone.update",
  "zone.delete",
  "access_code.create",
  "access_code.delete",
  "billing.run",
  "billing.recalculate",
  "bill.delete",
  "payment.record",
  "tenancy.change",
  "device.create",
  "device.update",
  "device.delete",
  "device.credentials",
  "certificate.issue",
  "certificate.revoke",
  "api_key.create",
  "api_key.revoke",
  "second_factor.enable",
  "second_factor.disable",
] as const;

/** One kind of audited action. */
export type AuditKind = typeof AUDIT_KINDS[number];

/** Who acted, from where: the signed-in account and the request's address. */
export interface Actor {
  id: number | null;
  email: string;
  address: string;
  /** The API key the request came with (its id), when it did. */
  api_key?: string;
}

/** An entry as the caller of a commit describes it (the commit adds the id and the fields). */
export interface AuditStamp {
  at: number;
  actor: Actor;
  kind: AuditKind;
  /** What was changed: `user:12`, `zone:3`, `bill:40`, `device:7`, `zone:3/2026-01`. */
  object: string;
  /** Why, when the action asks for a reason (a recalculation). */
  reason?: string;
}

/** A changed field's values, by field name. */
export type Fields = Record<string, unknown>;

/** One stored entry: never edited or deleted. */
export interface AuditEntry extends AuditStamp {
  id: string;
  /** The changed fields as they were (null: the object did not exist). */
  before: Fields | null;
  /** The changed fields as they are (null: the object is gone). */
  after: Fields | null;
}

/** Fields never copied into the trail (hashes, passwords, keys, second-factor secrets). */
const SECRET = /password|hash|secret|private|token|recovery|sealed/i;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The before and after of the fields that differ between two states of an object (`null`:
 * it did not exist, or is gone: then every field counts), without secret fields (a changed
 * secret is named with `"(changed)"`) nor `updated_at`.
 */
export function changes(
  before: object | null,
  after: object | null,
): { before: Fields | null; after: Fields | null } {
  const b = (before ?? {}) as Fields;
  const a = (after ?? {}) as Fields;
  const out = { before: {} as Fields, after: {} as Fields };
  for (const field of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (field === "updated_at" || same(b[field], a[field])) continue;
    const secret = SECRET.test(field);
    if (before) out.before[field] = secret ? "(secret)" : b[field];
    if (after) out.after[field] = secret ? "(changed)" : a[field];
  }
  return { before: before ? out.before : null, after: after ? out.after : null };
}

/** Width of an id's time part: milliseconds in base 36 (9 digits last until the year 5188). */
const TIME_DIGITS = 9;

/**
 * A time-ordered id: the time in base 36, fixed width, then a random part, so ids sort by
 * time as text and two processes never need a shared counter.
 */
export function auditId(at: number, random: string): string {
  return `${timePart(at)}-${random}`;
}

/** The time part of ids at `at`: a bound of a date range. */
export function timePart(at: number): string {
  return Math.max(0, Math.floor(at)).toString(36).padStart(TIME_DIGITS, "0");
}

/** The time an id was made at. */
export function idTime(id: string): number {
  return parseInt(id.slice(0, TIME_DIGITS), 36);
}

/** An id as a list's cursor accepts it. */
export const AUDIT_ID = /^[0-9a-z]{9}-[0-9a-f]{8,32}$/;

/** What an audit list may be filtered by (each optional) and paged with. */
export interface AuditFilter {
  actor?: number;
  kind?: AuditKind;
  object?: string;
  /** From this time (epoch ms, inclusive). */
  from?: number;
  /** Before this time (epoch ms, exclusive). */
  to?: number;
}

/** The API's query: `GET /api/audit-log?limit&cursor&kind&actor&object`. */
export const auditQuerySchema = z.object({
  limit: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid")
    .min(1, "validation.invalid").max(200, "validation.invalid").default(50),
  cursor: z.string().regex(AUDIT_ID, "audit.errors.bad_cursor").optional(),
  kind: z.enum(AUDIT_KINDS, { error: "audit.errors.bad_kind" }).optional(),
  actor: z.coerce.number().int().positive("audit.errors.bad_actor").optional(),
  object: z.string().max(80).optional(),
});

/** Whether an entry passes a filter. */
export function passes(e: AuditEntry, f: AuditFilter): boolean {
  return (f.actor === undefined || e.actor.id === f.actor) &&
    (f.kind === undefined || e.kind === f.kind) &&
    (f.object === undefined || e.object === f.object) &&
    (f.from === undefined || e.at >= f.from) &&
    (f.to === undefined || e.at < f.to);
}

/** An entry's fields as one text cell (`field: value`, separated by `; `). */
export function fieldsText(fields: Fields | null): string {
  if (!fields) return "";
  return Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("; ");
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const quiet = <T extends z.ZodType>(s: T) => s.optional().catch(undefined);

/**
 * The audit page's query: person, kind, object, dates (`YYYY-MM-DD`, business days), cursor,
 * `format=csv`. A bad value is as if absent (a page falls back, never refuses).
 */
export const auditPageQuerySchema = z.object({
  actor: quiet(z.coerce.number().int().positive()),
  kind: quiet(z.enum(AUDIT_KINDS)),
  object: quiet(z.string().trim().min(1).max(80)),
  from: quiet(z.string().regex(DATE)),
  to: quiet(z.string().regex(DATE)),
  cursor: quiet(z.string().regex(AUDIT_ID)),
  format: quiet(z.literal("csv")),
});

/** The audit page's query as parsed. */
export type AuditPageQuery = z.output<typeof auditPageQuerySchema>;
