/**
 * Accounts in Deno KV.
 *
 * Key layout:
 * - `["users", id]` → {@link StoredUser}
 * - `["users_by_email", email]` → id (keeps e-mail addresses unique)
 * - `["users_by_role", role, id]` → {@link UserRow}: what the account lists show and search,
 *   one small entry per account, so a list page reads full accounts only for its rows
 * - `["user_counts", role]` → `Deno.KvU64`: accounts of each role, summed in the same commit
 *   as each create, role change and delete (a decrement adds 2^64 - 1)
 * - `["users_revision"]` → `Deno.KvU64`: 1 added by every commit that writes an account
 * - `["users_meta", "indexes"]` → 1 once rows and counts were built for accounts stored
 *   before they existed (see {@link ensureUserIndexes})
 */
import type { Assignments, User } from "../core/types.ts";
import type { Language, Role } from "../core/roles.ts";
import { listValues, listValuesSlice, nextId } from "./kv.ts";
import { oncePerStore } from "./_once_per_store.ts";
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";

/** A user as stored: the public fields plus the password hash and the session version. */
export interface StoredUser extends User {
  password_hash: string;
  /** Raised to end every session of the account at once (absent: 0). */
  session_version?: number;
}

/** What creating an account needs. */
export interface NewUser {
  email: string;
  full_name: string;
  phone?: string;
  role: Role;
  is_active?: boolean;
  language?: Language;
  company_name?: string;
  tax_id?: string;
  password_hash: string;
  assignments?: Assignments;
}

/** Thrown when an e-mail address already belongs to another account. */
export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`e-mail ${email} is already registered`);
    this.name = "EmailTakenError";
  }
}

const userKey = (id: number) => ["users", id];
const emailKey = (email: string) => ["users_by_email", email];
const roleKey = (role: Role, id: number) => ["users_by_role", role, id];
const countKey = (role: Role) => ["user_counts", role];
const META_KEY = ["users_meta", "indexes"];
const ROLES_ALL: readonly Role[] = ["admin", "customer", "user"];
const U64 = 1n << 64n;

/** What the account lists show and search of an account. */
export interface UserRow {
  id: number;
  full_name: string;
  email: string;
  phone: string;
  company_name: string;
  is_active: boolean;
  created_at: number;
}

/** The list row of an account. */
function userRow(u: StoredUser): UserRow {
  return {
    id: u.id,
    full_name: u.full_name,
    email: u.email,
    phone: u.phone,
    company_name: u.company_name,
    is_active: u.is_active,
    created_at: u.created_at,
  };
}

/** The accounts' revision (a page kept by it is checked with one read). */
export const USERS_REVISION: Deno.KvKey = ["users_revision"];

/**
 * Adds to `op` the list row and role count changes from `prev` to `next` (an account created,
 * changed or deleted); the record and e-mail keys are the caller's.
 */
function stageRow(op: Deno.AtomicOperation, prev: StoredUser | null, next: StoredUser | null) {
  op.sum(USERS_REVISION, 1n);
  if (prev && (!next || next.role !== prev.role)) {
    op.delete(roleKey(prev.role, prev.id));
    op.sum(countKey(prev.role), U64 - 1n);
  }
  if (next) {
    op.set(roleKey(next.role, next.id), userRow(next));
    if (!prev || prev.role !== next.role) op.sum(countKey(next.role), 1n);
  }
}

/** Adds a new account's record, e-mail, list row and count to `op` (e-mail checked unused). */
export function stageNewUser(op: Deno.AtomicOperation, user: StoredUser): Deno.AtomicOperation {
  op.check({ key: emailKey(user.email), versionstamp: null })
    .set(userKey(user.id), user)
    .set(emailKey(user.email), user.id);
  stageRow(op, null, user);
  return op;
}

/** Strips the password hash and the session version. */
export function publicUser(u: StoredUser): User {
  const { password_hash: _, session_version: _v, ...rest } = u;
  return rest;
}

/** Builds the stored record of a new account (no I/O). */
export function buildUser(id: number, input: NewUser, now: number): StoredUser {
  return {
    id,
    email: input.email,
    full_name: input.full_name,
    phone: input.phone ?? "",
    role: input.role,
    is_active: input.is_active ?? true,
    language: input.language ?? "es",
    company_name: input.role === "customer" ? input.company_name ?? "" : "",
    tax_id: input.role === "customer" ? input.tax_id ?? "" : "",
    assignments: input.assignments ?? { stations: [], units: [] },
    created_at: now,
    updated_at: now,
    password_hash: input.password_hash,
  };
}

/** Creates an account; throws {@link EmailTakenError} when the address is in use. */
export async function createUser(
  kv: Deno.Kv,
  input: NewUser,
  now: number,
  audit?: AuditStamp,
): Promise<StoredUser> {
  const id = await nextId(kv, "users");
  const user = buildUser(id, input, now);
  const op = stageNewUser(kv.atomic(), user);
  if (audit) stageAudit(op, { ...audit, object: `user:${id}` }, null, user);
  const res = await op.commit();
  if (!res.ok) throw new EmailTakenError(user.email);
  return user;
}

/** Reads an account by id. */
export async function getUser(kv: Deno.Kv, id: number): Promise<StoredUser | null> {
  return (await kv.get<StoredUser>(userKey(id))).value;
}

/** Reads an account by (normalized) e-mail. */
export async function findUserByEmail(kv: Deno.Kv, email: string): Promise<StoredUser | null> {
  const id = (await kv.get<number>(emailKey(email))).value;
  return id === null ? null : getUser(kv, id);
}

/** Every account, oldest first, optionally of one role. */
export async function listUsers(kv: Deno.Kv, role?: Role): Promise<StoredUser[]> {
  const all = await listValues<StoredUser>(kv, ["users"]);
  return role ? all.filter((u) => u.role === role) : all;
}

/**
 * Applies `patch` to an account, moving the e-mail index when the address changes; `stage`
 * adds writes of the caller's to the same commit. Returns null when the account does not exist; throws {@link EmailTakenError}.
 */
export async function updateUser(
  kv: Deno.Kv,
  id: number,
  patch: Partial<Omit<StoredUser, "id" | "created_at">>,
  now: number,
  stage?: (op: Deno.AtomicOperation, prev: StoredUser, next: StoredUser) => void,
  audit?: AuditStamp,
): Promise<StoredUser | null> {
  for (;;) {
    const cur = await kv.get<StoredUser>(userKey(id));
    if (!cur.value) return null;
    const next: StoredUser = { ...cur.value, ...patch, id, updated_at: now };
    const op = kv.atomic().check(cur).set(userKey(id), next);
    stageRow(op, cur.value, next);
    stage?.(op, cur.value, next);
    if (audit) stageAudit(op, audit, cur.value, next);
    if (next.email !== cur.value.email) {
      op.check({ key: emailKey(next.email), versionstamp: null })
        .delete(emailKey(cur.value.email))
        .set(emailKey(next.email), id);
    }
    const res = await op.commit();
    if (res.ok) return next;
    const owner = (await kv.get<number>(emailKey(next.email))).value;
    if (next.email !== cur.value.email && owner !== null && owner !== id) {
      throw new EmailTakenError(next.email);
    }
  }
}

/** Deletes an account; false when there was none. */
export async function deleteUser(
  kv: Deno.Kv,
  id: number,
  audit?: AuditStamp,
): Promise<boolean> {
  for (;;) {
    const cur = await kv.get<StoredUser>(userKey(id));
    if (!cur.value) return false;
    const op = kv.atomic().check(cur).delete(userKey(id)).delete(emailKey(cur.value.email));
    stageRow(op, cur.value, null);
    if (audit) stageAudit(op, audit, cur.value, null);
    if ((await op.commit()).ok) return true;
  }
}

/** The key of an e-mail's account, for atomic operations spanning several collections. */
export { emailKey };

/** The accounts `ids` (nulls and unknown ids left out): id → account. */
export async function getUsers(
  kv: Deno.Kv,
  ids: Iterable<number | null>,
): Promise<Map<number, StoredUser>> {
  const wanted = [...new Set(ids)].filter((id): id is number => id !== null);
  const out = new Map<number, StoredUser>();
  for (let i = 0; i < wanted.length; i += 10) {
    const users = await kv.getMany<StoredUser[]>(wanted.slice(i, i + 10).map(userKey));
    for (const u of users) if (u.value) out.set(u.value.id, u.value);
  }
  return out;
}

/**
 * The full names of the accounts `ids` (nulls and unknown ids left out): id → name. Many ids
 * are read with one scan of the list rows (small entries) instead of a read per account.
 */
export async function fullNames(
  kv: Deno.Kv,
  ids: Iterable<number | null>,
): Promise<Map<number, string>> {
  const wanted = new Set([...ids].filter((id): id is number => id !== null));
  if (wanted.size <= MANY_NAMES) {
    const users = await getUsers(kv, wanted);
    return new Map([...users].map(([id, u]) => [id, u.full_name]));
  }
  await ensureUserIndexes(kv);
  const out = new Map<number, string>();
  for await (const e of kv.list<UserRow>({ prefix: ["users_by_role"] })) {
    if (wanted.has(e.value.id)) out.set(e.value.id, e.value.full_name);
  }
  return out;
}

/** Above this many accounts, {@link fullNames} scans the list rows. */
const MANY_NAMES = 200;

// ---- list rows and counts ---------------------------------------------------------------------

/**
 * Builds the list rows and role counts of accounts stored before they were kept with each
 * write (once per store; later calls answer at once).
 */
const ensureUserIndexes = oncePerStore(buildIndexes);

async function buildIndexes(kv: Deno.Kv): Promise<void> {
  const meta = await kv.get<number>(META_KEY);
  if (meta.value !== null) return;
  const counts = new Map<Role, number>(ROLES_ALL.map((r) => [r, 0]));
  let op = kv.atomic();
  let n = 0;
  for await (const e of kv.list<StoredUser>({ prefix: ["users"] })) {
    counts.set(e.value.role, (counts.get(e.value.role) ?? 0) + 1);
    op.set(roleKey(e.value.role, e.value.id), userRow(e.value));
    if (++n % 500 === 0) {
      await op.commit();
      op = kv.atomic();
    }
  }
  op.check(meta).set(META_KEY, 1);
  for (const [role, c] of counts) op.set(countKey(role), new Deno.KvU64(BigInt(c)));
  await op.commit();
}

/** Accounts of each role, from the counts kept with the writes. */
export async function userCounts(kv: Deno.Kv): Promise<Record<Role, number>> {
  await ensureUserIndexes(kv);
  const got = await kv.getMany<Deno.KvU64[]>(ROLES_ALL.map(countKey));
  const out = {} as Record<Role, number>;
  ROLES_ALL.forEach((r, i) => {
    out[r] = got[i].value ? Number(BigInt.asIntN(64, got[i].value!.value)) : 0;
  });
  return out;
}

/** The list rows of the accounts of a role, oldest first. */
export async function listUserRows(kv: Deno.Kv, role: Role): Promise<UserRow[]> {
  await ensureUserIndexes(kv);
  return await listValues<UserRow>(kv, ["users_by_role", role]);
}

/**
 * The list rows of the accounts `offset`..`offset + limit - 1` of a role in id order: reads
 * only up to the last one asked for.
 */
export async function userRowsSlice(
  kv: Deno.Kv,
  role: Role,
  offset: number,
  limit: number,
): Promise<UserRow[]> {
  await ensureUserIndexes(kv);
  return await listValuesSlice<UserRow>(kv, ["users_by_role", role], offset, limit);
}
