/**
 * Password reset (issue 28). A request answers the same whether the address has an account or
 * not, and is throttled per address and per client address; for an active account it stores a
 * reset (only the token's hash, 60 minutes) with the event of its mail in one commit. The token
 * is the reset's random id and an HMAC of it under the portal's secret, so the mail worded later
 * can carry it while the store never holds it. Using it deletes the reset (single use), sets the
 * password (the registration's rules) and ends every session of the account; the account is
 * told by mail.
 */
import type { Deps } from "./deps.ts";
import { invalid, notFound } from "./refusal.ts";
import { passwordProblem } from "../core/password_rules.ts";
import type { OutboxEvent } from "../core/messages.ts";
import {
  consumeReset,
  createReset,
  reserveResetRequest,
  resetValid,
} from "../db/password_resets.ts";
import { stageOutboxEvent } from "../db/outbox.ts";
import { findUserByEmail, getUser, listUsers, type StoredUser, updateUser } from "../db/users.ts";
import { hashPassword } from "./platform/passwords.ts";
import { endingSessions } from "./sessions.ts";

/** How long a reset link works. */
export const RESET_TTL_MS = 60 * 60_000;
/** Requests per e-mail and per client address in an hour. */
export const RESET_LIMITS = { perEmail: 3, perAddress: 10, windowMs: 60 * 60_000 };

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The token of reset `id`: the id and its HMAC under `secret`. */
export async function resetToken(secret: string, id: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`reset:${id}`));
  return `${id}.${b64url(new Uint8Array(mac))}`;
}

/** The stored form of a token. */
async function tokenHash(token: string): Promise<string> {
  const h = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(h)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Stores a reset for `user` and the event of its mail; answers the token. */
async function issueReset(deps: Deps, user: StoredUser): Promise<string> {
  const id = b64url(crypto.getRandomValues(new Uint8Array(16)));
  const token = await resetToken(deps.secret, id);
  const now = deps.now();
  await createReset(deps.kv, await tokenHash(token), {
    user_id: user.id,
    expires_at: now + RESET_TTL_MS,
  }, {
    key: `password_reset:${id}`,
    kind: "password_reset",
    to: [user.id],
    params: { reset_id: id },
  }, now);
  return token;
}

/** The answer to a reset request: sent (whether or not the address has an account), or wait. */
export type ResetRequestResult = { ok: true } | { ok: false; retryAfterMs: number };

/** A reset asked for by `email` from `address` (see the module's text). */
export async function requestPasswordReset(
  deps: Deps,
  email: string,
  address: string,
): Promise<ResetRequestResult> {
  const slot = await reserveResetRequest(deps.kv, email, address, deps.now(), RESET_LIMITS);
  if (!slot.ok) return slot;
  const user = await findUserByEmail(deps.kv, email);
  if (user?.is_active) await issueReset(deps, user);
  else deps.log.log("info", "password reset for no active account", { address });
  return { ok: true };
}

/** An admin sends account `id` a reset link. */
export async function sendResetLink(deps: Deps, id: number): Promise<StoredUser> {
  const user = await getUser(deps.kv, id);
  if (!user) throw notFound("errors.user_not_found");
  if (!user.is_active) throw invalid({}, "auth.errors.account_disabled");
  await issueReset(deps, user);
  return user;
}

/** Whether a token may still be used (the reset page shows the form only then). */
export async function resetTokenValid(deps: Deps, token: string): Promise<boolean> {
  return token !== "" && await resetValid(deps.kv, await tokenHash(token), deps.now());
}

/** The event that tells an account its password changed. */
export function passwordChangedEvent(userId: number, at: number): OutboxEvent {
  return {
    key: `password_changed:${userId}:${at}`,
    kind: "password_changed",
    to: [userId],
    params: {},
  };
}

/**
 * Sets a new password with a reset token. Refuses a token that is unknown, forged, used or
 * expired (`token`), a password the rules refuse (`password`); the reset is used up first, so
 * a token works once even when two requests race.
 */
export async function resetPassword(deps: Deps, token: string, password: string): Promise<void> {
  const hash = await tokenHash(token);
  const now = deps.now();
  if (!await resetValid(deps.kv, hash, now)) {
    throw invalid({ token: "messages.reset.invalid_token" });
  }
  const reset = await deps.kv.get<{ user_id: number }>(["password_resets", hash]);
  const user = reset.value ? await getUser(deps.kv, reset.value.user_id) : null;
  if (!user || !user.is_active) throw invalid({ token: "messages.reset.invalid_token" });
  const weak = passwordProblem(password, user.email);
  if (weak) throw invalid({ password: weak });
  const password_hash = await hashPassword(password);
  if (!await consumeReset(deps.kv, hash, deps.now())) {
    throw invalid({ token: "messages.reset.invalid_token" });
  }
  await updateUser(
    deps.kv,
    user.id,
    { password_hash, ...endingSessions(user) },
    deps.now(),
    (op) => stageOutboxEvent(op, passwordChangedEvent(user.id, now)),
  );
  deps.log.log("info", "password reset", { user_id: user.id });
}

/**
 * Gives the first admin (or the admin with `email`) a new password and ends its sessions:
 * `deno task reset-admin`. Answers the account's e-mail and the password to print.
 */
export async function resetAdminPassword(
  deps: Deps,
  email: string | null,
  password: string | null,
): Promise<{ email: string; password: string } | null> {
  const admins = (await listUsers(deps.kv, "admin")).filter((u) => !email || u.email === email);
  const admin = admins[0];
  if (!admin) return null;
  const chosen = password ?? generatePassword();
  const weak = passwordProblem(chosen, admin.email);
  if (weak) throw invalid({ password: weak });
  await updateUser(
    deps.kv,
    admin.id,
    {
      password_hash: await hashPassword(chosen),
      is_active: true,
      ...endingSessions(admin),
    },
    deps.now(),
    (op) => stageOutboxEvent(op, passwordChangedEvent(admin.id, deps.now())),
  );
  return { email: admin.email, password: chosen };
}

/** A random password of 16 characters from an unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => alphabet[b % alphabet.length]).join("");
}

/**
 * Adds to a profile change's commit the mails it causes: a new password tells the account, a
 * new e-mail tells the old address.
 */
export function stageAccountNotices(
  op: Deno.AtomicOperation,
  prev: StoredUser,
  next: StoredUser,
  at: number,
): void {
  if (next.password_hash !== prev.password_hash) {
    stageOutboxEvent(op, passwordChangedEvent(next.id, at));
  }
  if (next.email !== prev.email) {
    stageOutboxEvent(op, {
      key: `email_changed:${next.id}:${at}`,
      kind: "email_changed",
      to: [next.id],
      params: { address: prev.email },
    });
  }
}
