/** Account use cases: sign-in, registration, administration, profile, first admin. */
import type { Deps } from "./deps.ts";
import { invalid, notFound } from "./refusal.ts";
import type { Role } from "../core/roles.ts";
import { passwordProblem } from "../core/password_rules.ts";
import { assignmentsForRole, type User, type UserStats } from "../core/types.ts";
import { hashPassword, verifyPassword } from "./platform/passwords.ts";
import { endingSessions } from "./sessions.ts";
import {
  createUser,
  deleteUser,
  EmailTakenError,
  getUser,
  getUsers,
  listUserRows,
  listUsers,
  publicUser,
  type StoredUser,
  updateUser,
  userCounts,
  type UserRow,
  userRowsSlice,
} from "../db/users.ts";
import { type ListQuery, matches, type Page, pageOf, paginate, sortRows } from "../core/paging.ts";
import { reserveRegistration, settleRegistration } from "../db/throttle.ts";
import {
  forgetCodeUser,
  listAccessCodes,
  registerWithCode,
  registrationBlocker,
} from "../db/access_codes.ts";
import { deleteNotificationsOf } from "../db/notifications.ts";
import { generatePassword, stageAccountNotices } from "./password_reset.ts";
import { applyRegistrationAssignments } from "./devices/mod.ts";
import { auditStamp } from "./audit.ts";
import type { AuditKind } from "../core/audit.ts";
import type { z } from "zod";
import type {
  accountCreateSchema,
  accountUpdateSchema,
  profileSchema,
  registerSchema,
} from "../core/schemas.ts";

export { completeSignIn, signIn, type SignInResult } from "./sign_in.ts";
import { unlessBusy } from "./sign_in.ts";

/** The outcome of a registration. */
type RegisterResult =
  | { ok: true; user: User }
  | { ok: false; field: "accessCode" | "email" | "password"; key: string }
  | { ok: false; throttled: true; retryAfterMs: number };

/**
 * A code that does not exist and an e-mail that is taken get one answer, on the code: a
 * registration must not tell whether an e-mail has an account. (A used code is named as such:
 * it is checked before the e-mail, so that says nothing about the e-mail.)
 */
const REFUSED = { field: "accessCode", key: "validation.access_code_refused" } as const;
const REGISTER_REFUSALS = {
  code_invalid: REFUSED,
  code_used: { field: "accessCode", key: "validation.access_code_used" },
  email_taken: REFUSED,
} as const;

/**
 * Registers with an access code: one code, one account, atomically. The address's
 * registrations are throttled and the code and e-mail checked before the password is hashed
 * and a user id taken.
 */
export async function register(
  deps: Deps,
  input: z.output<typeof registerSchema>,
  language: User["language"],
  address: string,
): Promise<RegisterResult> {
  const weak = passwordProblem(input.password, input.email);
  if (weak) return { ok: false, field: "password", key: weak };
  const slot = await reserveRegistration(deps.kv, address, deps.now(), deps.throttle);
  if (!slot.ok) return { ok: false, throttled: true, retryAfterMs: slot.retryAfterMs };
  const blocker = await registrationBlocker(deps.kv, input.accessCode, input.email);
  if (blocker) return { ok: false, ...REGISTER_REFUSALS[blocker] };
  const res = await registerWithCode(deps.kv, input.accessCode, {
    email: input.email,
    full_name: input.full_name,
    phone: input.phone,
    language,
    password_hash: await unlessBusy(
      () => hashPassword(input.password),
      () => settleRegistration(deps.kv, address, deps.throttle),
    ),
  }, deps.now());
  if (typeof res === "string") return { ok: false, ...REGISTER_REFUSALS[res] };
  const { user: created, code } = res;
  await settleRegistration(deps.kv, address, deps.throttle);
  deps.log.log("info", "account registered", { user_id: created.id, role: created.role });
  // The account and the used code were committed together above; the code's stations or
  // units are bound to the account now, device by device. A failure here leaves a valid
  // account that an admin can assign by hand, so it is logged, not reported.
  try {
    const bound = await applyRegistrationAssignments(
      deps,
      publicUser(created),
      code.move_in_date ?? null,
    );
    if (bound.skipped.length) {
      deps.log.log("warn", "access code assignments skipped", {
        user_id: created.id,
        skipped: bound.skipped,
      });
    }
  } catch (e) {
    deps.log.log("error", "access code assignments failed", {
      user_id: created.id,
      error: String(e),
    });
  }
  return { ok: true, user: publicUser(created) };
}

/** Refuses a new password that is common or the account's e-mail (`field` names it). */
function refuseWeakPassword(field: string, password: string, email: string): void {
  const weak = passwordProblem(password, email);
  if (weak) throw invalid({ [field]: weak });
}

/** Counts for the users management page (accounts from the counts kept with the writes). */
export async function userStats(deps: Deps): Promise<UserStats> {
  const counts = await userCounts(deps.kv);
  const codes = await listAccessCodes(deps.kv);
  return {
    totalUsers: counts.admin + counts.customer + counts.user,
    totalCustomers: counts.customer,
    totalTenants: counts.user,
    unusedCodes: codes.filter((c) => !c.is_used).length,
  };
}

/** The sort keys of the account lists (the first is the default: oldest first). */
export const USER_SORTS = ["created", "name", "email", "phone", "company", "status"] as const;
/** A sort key of the account lists. */
export type UserSort = typeof USER_SORTS[number];

/**
 * One page of the accounts of a role, searched by name, e-mail, phone, company and id and
 * sorted by a visible column over the accounts' list rows; full accounts are read for the
 * page only.
 */
export async function pageUsers(
  deps: Deps,
  role: Role,
  query: ListQuery<UserSort>,
): Promise<Page<User>> {
  const byId = query.sort === "created" && query.dir === "asc";
  if (!query.q && byId) {
    // The default order: the count is kept, and only up to the page is read.
    const total = (await userCounts(deps.kv))[role];
    const { page, pages, start } = pageOf(total, query);
    const slice = await userRowsSlice(deps.kv, role, start, query.size);
    const users = await getUsers(deps.kv, slice.map((u) => u.id));
    const rows = slice.map((r) => users.get(r.id)).filter((u) => u !== undefined).map(publicUser);
    return { rows, total, page, size: query.size, pages };
  }
  let rows = await listUserRows(deps.kv, role);
  if (query.q) {
    rows = rows.filter((u) =>
      String(u.id) === query.q ||
      matches(query.q, [u.full_name, u.email, u.phone, u.company_name])
    );
  }
  if (query.sort !== "created" || query.dir !== "asc") {
    const key: Record<UserSort, (u: UserRow) => string | number> = {
      created: (u) => u.id,
      name: (u) => u.full_name,
      email: (u) => u.email,
      phone: (u) => u.phone,
      company: (u) => u.company_name,
      status: (u) => (u.is_active ? 0 : 1),
    };
    sortRows(rows, key[query.sort], query.dir, (u) => u.id);
  }
  const page = paginate(rows, query);
  const users = await getUsers(deps.kv, page.rows.map((u) => u.id));
  return {
    ...page,
    rows: page.rows.map((r) => users.get(r.id)).filter((u) => u !== undefined).map(publicUser),
  };
}

/** Accounts, optionally of one role and matching a search over name, e-mail and phone. */
export async function findUsers(deps: Deps, role?: Role, search?: string): Promise<User[]> {
  const q = (search ?? "").trim().toLowerCase();
  return (await listUsers(deps.kv, role))
    .map(publicUser)
    .filter((u) =>
      !q || u.full_name.toLowerCase().includes(q) || u.email.includes(q) || u.phone.includes(q) ||
      u.company_name.toLowerCase().includes(q)
    );
}

/** Creates an account (admin). */
export async function createAccount(
  deps: Deps,
  input: z.output<typeof accountCreateSchema>,
): Promise<User> {
  refuseWeakPassword("password", input.password, input.email);
  const password_hash = await hashPassword(input.password);
  const user = await refusingTakenEmail(() =>
    createUser(
      deps.kv,
      { ...input, is_active: input.is_active ?? true, password_hash },
      deps.now(),
      auditStamp(deps, "user.create", "user:new"),
    )
  );
  return publicUser(user);
}

/** What `write` answers; a taken e-mail is refused on the `email` field. */
async function refusingTakenEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof EmailTakenError) throw invalid({ email: "validation.email_taken" });
    throw e;
  }
}

/** Writes a change to an account and answers it: refused when it is gone or the e-mail taken. */
async function saveAccount(
  deps: Deps,
  id: number,
  patch: Partial<Omit<StoredUser, "id" | "created_at">>,
  stage?: Parameters<typeof updateUser>[4],
  kind: AuditKind = "user.update",
): Promise<User> {
  const audit = auditStamp(deps, kind, `user:${id}`);
  const next = await refusingTakenEmail(() =>
    updateUser(deps.kv, id, patch, deps.now(), stage, audit)
  );
  if (!next) throw notFound("errors.user_not_found");
  return publicUser(next);
}

/**
 * Updates an account (admin). A role change resets the assignments that no longer apply
 * (customer to tenant drops stations, tenant to customer drops units); a blank password
 * keeps the current one. An admin cannot demote or deactivate themselves.
 */
export async function updateAccount(
  deps: Deps,
  actor: User,
  id: number,
  input: z.output<typeof accountUpdateSchema>,
): Promise<User> {
  const cur = await getUser(deps.kv, id);
  if (!cur) throw notFound("errors.user_not_found");
  if (actor.id === id && (input.role !== "admin" || input.is_active === false)) {
    throw invalid({ role: "errors.cannot_demote_self" });
  }
  if (input.password) refuseWeakPassword("password", input.password, input.email);
  return await saveAccount(deps, id, {
    email: input.email,
    full_name: input.full_name,
    phone: input.phone,
    role: input.role,
    is_active: input.is_active ?? cur.is_active,
    language: input.language ?? cur.language,
    company_name: input.role === "customer" ? input.company_name : "",
    tax_id: input.role === "customer" ? input.tax_id : "",
    assignments: assignmentsForRole(cur.assignments, input.role),
    ...(input.password ? { password_hash: await hashPassword(input.password) } : {}),
    // A new password, a new role or a deactivation ends every session of the account.
    ...(input.password || input.role !== cur.role || input.is_active === false
      ? endingSessions(cur)
      : {}),
  });
}

/** Flips an account between active and inactive (admin; not oneself). */
export async function toggleAccount(deps: Deps, actor: User, id: number): Promise<User> {
  if (actor.id === id) throw invalid({}, "errors.cannot_deactivate_self");
  const cur = await getUser(deps.kv, id);
  if (!cur) throw notFound("errors.user_not_found");
  return await saveAccount(
    deps,
    id,
    {
      is_active: !cur.is_active,
      ...(cur.is_active ? endingSessions(cur) : {}),
    },
    undefined,
    "user.toggle",
  );
}

/** Deletes an account (admin; not oneself), its notifications and its hold on used codes. */
export async function deleteAccount(
  deps: Deps,
  actor: User,
  id: number,
): Promise<void> {
  if (actor.id === id) throw invalid({}, "errors.cannot_delete_self");
  if (!(await deleteUser(deps.kv, id, auditStamp(deps, "user.delete", `user:${id}`)))) {
    throw notFound("errors.user_not_found");
  }
  await forgetCodeUser(deps.kv, id);
  await deleteNotificationsOf(deps.kv, id);
}

/** Updates one's own profile; a new password or a new e-mail needs the current password. */
export async function updateProfile(
  deps: Deps,
  actor: User,
  input: z.output<typeof profileSchema>,
): Promise<User> {
  const cur = await getUser(deps.kv, actor.id);
  if (!cur) throw notFound("errors.user_not_found");
  let password_hash: string | undefined;
  if (input.new_password) refuseWeakPassword("new_password", input.new_password, input.email);
  if (input.email !== cur.email && input.current_password === "") {
    throw invalid({ current_password: "validation.current_password_for_email" });
  }
  if (input.new_password || input.email !== cur.email) {
    if (!(await verifyPassword(input.current_password, cur.password_hash))) {
      throw invalid({ current_password: "validation.current_password_wrong" });
    }
    if (input.new_password) password_hash = await hashPassword(input.new_password);
  }
  return await saveAccount(deps, actor.id, {
    email: input.email,
    full_name: input.full_name,
    phone: input.phone,
    language: input.language,
    ...(password_hash ? { password_hash, ...endingSessions(cur) } : {}),
  }, (op, prev, next) => stageAccountNotices(op, prev, next, deps.now()));
}

/**
 * On an empty store, creates the first admin from ADMIN_EMAIL/ADMIN_PASSWORD, or with a
 * generated password that is returned so the caller can print it once.
 */
export async function ensureAdmin(
  deps: Deps,
): Promise<{ email: string; password: string | null } | null> {
  if ((await listUsers(deps.kv, "admin")).length > 0) return null;
  const email = deps.config.adminEmail ?? "admin@example.com";
  const generated = deps.config.adminPassword ? null : generatePassword();
  const password = deps.config.adminPassword ?? generated!;
  await createUser(deps.kv, {
    email,
    full_name: "Administrator",
    role: "admin",
    password_hash: await hashPassword(password),
  }, deps.now());
  return { email, password: generated };
}

/** The account with `id` without its password hash, or null when there is none. */
export async function getAccount(deps: Deps, id: number): Promise<User | null> {
  const stored = await getUser(deps.kv, id);
  return stored ? publicUser(stored) : null;
}
