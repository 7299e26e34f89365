/**
 * Accounts in Deno KV.
 *
 * Key layout:
 * - `["users", id]` → {@link StoredUser}
 * - `["users_by_email", email]` → id (keeps e-mail addresses unique)
 */
import type { Assignments, User } from "../core/types.ts";
import type { Language, Role } from "../core/roles.ts";
import { listValues, nextId } from "./kv.ts";

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
export async function createUser(kv: Deno.Kv, input: NewUser, now: number): Promise<StoredUser> {
  const id = await nextId(kv, "users");
  const user = buildUser(id, input, now);
  const res = await kv.atomic()
    .check({ key: emailKey(user.email), versionstamp: null })
    .set(userKey(id), user)
    .set(emailKey(user.email), id)
    .commit();
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
 * Applies `patch` to an account, moving the e-mail index when the address changes.
 * Returns null when the account does not exist; throws {@link EmailTakenError}.
 */
export async function updateUser(
  kv: Deno.Kv,
  id: number,
  patch: Partial<Omit<StoredUser, "id" | "created_at">>,
  now: number,
): Promise<StoredUser | null> {
  for (;;) {
    const cur = await kv.get<StoredUser>(userKey(id));
    if (!cur.value) return null;
    const next: StoredUser = { ...cur.value, ...patch, id, updated_at: now };
    const op = kv.atomic().check(cur).set(userKey(id), next);
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
export async function deleteUser(kv: Deno.Kv, id: number): Promise<boolean> {
  const cur = await kv.get<StoredUser>(userKey(id));
  if (!cur.value) return false;
  await kv.atomic().check(cur).delete(userKey(id)).delete(emailKey(cur.value.email)).commit();
  return true;
}

/** The key of an account, for atomic operations spanning several collections. */
export { emailKey, userKey };

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

/** The full names of the accounts `ids` (nulls and unknown ids left out): id → name. */
export async function fullNames(
  kv: Deno.Kv,
  ids: Iterable<number | null>,
): Promise<Map<number, string>> {
  const users = await getUsers(kv, ids);
  return new Map([...users].map(([id, u]) => [id, u.full_name]));
}
