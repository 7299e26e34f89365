/**
 * Access codes in Deno KV, and registration with a code.
 *
 * Key layout:
 * - `["access_codes", id]` → {@link AccessCode}
 * - `["access_codes_by_code", code]` → id (codes are unique)
 * - `["access_codes_revision"]` → `Deno.KvU64`: 1 added by every commit that writes a code
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import type { AccessCode, Assignments } from "../core/types.ts";
import { listValues, nextId } from "./kv.ts";
import { buildUser, emailKey, type NewUser, stageNewUser, type StoredUser } from "./users.ts";

const codeKey = (id: number) => ["access_codes", id];
const byCodeKey = (code: string) => ["access_codes_by_code", code];
/** The access codes' revision (a page kept by it is checked with one read). */
export const ACCESS_CODES_REVISION: Deno.KvKey = ["access_codes_revision"];

/** Thrown when a code string is already taken by another access code. */
export class CodeTakenError extends Error {
  constructor(code: string) {
    super(`access code ${code} already exists`);
    this.name = "CodeTakenError";
  }
}

/** Creates an access code; throws {@link CodeTakenError} when the code exists. */
export async function createAccessCode(
  kv: Deno.Kv,
  input: {
    code: string;
    role: "customer" | "user";
    notes: string;
    assignments: Assignments;
    move_in_date?: string | null;
  },
  now: number,
  audit?: AuditStamp,
): Promise<AccessCode> {
  const id = await nextId(kv, "access_codes");
  const record: AccessCode = {
    id,
    code: input.code,
    role: input.role,
    notes: input.notes,
    assignments: input.assignments,
    move_in_date: input.role === "user" ? input.move_in_date ?? null : null,
    is_used: false,
    used_by_id: null,
    used_by_email: null,
    created_at: now,
  };
  const op = kv.atomic()
    .check({ key: byCodeKey(input.code), versionstamp: null })
    .set(codeKey(id), record)
    .set(byCodeKey(input.code), id)
    .sum(ACCESS_CODES_REVISION, 1n);
  if (audit) stageAudit(op, { ...audit, object: `access_code:${id}` }, null, record);
  const res = await op.commit();
  if (!res.ok) throw new CodeTakenError(input.code);
  return record;
}

/** Every access code, oldest first. */
export function listAccessCodes(kv: Deno.Kv): Promise<AccessCode[]> {
  return listValues<AccessCode>(kv, ["access_codes"]);
}

/**
 * At most `limit` access codes after the one with id `after` (null: from the first), in id
 * order, and whether more follow: reads only that page.
 */
export async function listAccessCodesAfter(
  kv: Deno.Kv,
  after: number | null,
  limit: number,
): Promise<{ codes: AccessCode[]; more: boolean }> {
  const selector = after === null
    ? { prefix: ["access_codes"] }
    : { prefix: ["access_codes"], start: codeKey(after + 1) };
  const codes: AccessCode[] = [];
  for await (const e of kv.list<AccessCode>(selector, { limit: limit + 1 })) codes.push(e.value);
  return { codes: codes.slice(0, limit), more: codes.length > limit };
}

/** Reads one access code by id. */
export async function getAccessCode(kv: Deno.Kv, id: number): Promise<AccessCode | null> {
  return (await kv.get<AccessCode>(codeKey(id))).value;
}

/** True when a code string is already in use by some access code. */
export async function codeExists(kv: Deno.Kv, code: string): Promise<boolean> {
  return (await kv.get(byCodeKey(code))).versionstamp !== null;
}

/** Deletes an access code; false when there was none. */
export async function deleteAccessCode(
  kv: Deno.Kv,
  id: number,
  audit?: AuditStamp,
): Promise<boolean> {
  const cur = await kv.get<AccessCode>(codeKey(id));
  if (!cur.value) return false;
  const op = kv.atomic().check(cur).delete(codeKey(id)).delete(byCodeKey(cur.value.code))
    .sum(ACCESS_CODES_REVISION, 1n);
  if (audit) stageAudit(op, audit, cur.value, null);
  await op.commit();
  return true;
}

/** Why a registration with a code did not happen. */
type RegisterFailure = "code_invalid" | "code_used" | "email_taken";

/** The code and e-mail entries a registration depends on, or why it cannot happen. */
async function readRegistration(kv: Deno.Kv, code: string, email: string) {
  const codeId = (await kv.get<number>(byCodeKey(code))).value;
  if (codeId === null) return "code_invalid";
  const entry = await kv.get<AccessCode>(codeKey(codeId));
  if (!entry.value) return "code_invalid";
  if (entry.value.is_used) return "code_used";
  const emailEntry = await kv.get(emailKey(email));
  if (emailEntry.versionstamp !== null) return "email_taken";
  return { codeId, entry: entry as Deno.KvEntry<AccessCode>, emailEntry };
}

/** Why a registration with `code` and `email` would fail now, or null when it could go ahead. */
export async function registrationBlocker(
  kv: Deno.Kv,
  code: string,
  email: string,
): Promise<RegisterFailure | null> {
  const read = await readRegistration(kv, code, email);
  return typeof read === "string" ? read : null;
}

/**
 * Creates the account bound to an access code and marks the code used, in one atomic
 * commit: of several concurrent registrations with the same code exactly one succeeds.
 * The account's role and assignments come from the code. A user id is taken only once the
 * code and the e-mail are known to be free.
 */
export async function registerWithCode(
  kv: Deno.Kv,
  code: string,
  input: Omit<NewUser, "role" | "assignments">,
  now: number,
): Promise<{ user: StoredUser; code: AccessCode } | RegisterFailure> {
  let id: number | null = null;
  for (;;) {
    const read = await readRegistration(kv, code, input.email);
    if (typeof read === "string") return read;
    const { codeId, entry, emailEntry } = read;
    id ??= await nextId(kv, "users");
    const user = buildUser(id, {
      ...input,
      role: entry.value.role,
      assignments: entry.value.assignments,
    }, now);
    const used: AccessCode = {
      ...entry.value,
      is_used: true,
      used_by_id: id,
      used_by_email: user.email,
    };
    const res = await stageNewUser(kv.atomic().check(entry).check(emailEntry), user)
      .set(codeKey(codeId), used)
      .sum(ACCESS_CODES_REVISION, 1n)
      .commit();
    if (res.ok) return { user, code: used };
  }
}

/** Clears `used_by_id` of the codes a deleted account had used, so they can be deleted. */
export async function forgetCodeUser(kv: Deno.Kv, userId: number): Promise<void> {
  for await (const entry of kv.list<AccessCode>({ prefix: ["access_codes"] })) {
    if (entry.value.used_by_id === userId) {
      await kv.atomic().check(entry).set(entry.key, { ...entry.value, used_by_id: null })
        .sum(ACCESS_CODES_REVISION, 1n).commit();
    }
  }
}
