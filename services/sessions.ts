/**
 * Sessions: a token is honoured only while its account is active and keeps the session
 * version the token was issued under; ending the sessions of an account (sign-out, a new
 * password, a new role, deactivation) raises that version, so every token of the account
 * stops at once. A session is refreshed at most `SESSION_MAX_DAYS` after its sign-in.
 */
import type { Deps } from "./deps.ts";
import type { User } from "../core/types.ts";
import { getUser, publicUser, type StoredUser, updateUser } from "../db/users.ts";
import { issueToken, type TokenClaims } from "./platform/tokens.ts";

/** A fresh access token and its lifetime in seconds. */
interface IssuedToken {
  token: string;
  ttlSeconds: number;
}

const versionOf = (u: StoredUser) => u.session_version ?? 0;
const startOf = (claims: TokenClaims) => claims.auth_time ?? claims.iat;

/** Seconds until the session that began at `authTime` (epoch seconds) may no longer refresh. */
function secondsLeft(deps: Deps, authTime: number, nowMs: number): number {
  return authTime + deps.config.sessionMaxDays * 86400 - Math.floor(nowMs / 1000);
}

/** A token for a new session of `user` (at sign-in). */
export function startSession(deps: Deps, user: StoredUser, nowMs: number): Promise<IssuedToken> {
  return continueSession(deps, user, Math.floor(nowMs / 1000), nowMs) as Promise<IssuedToken>;
}

/** A token continuing a session that began at `authTime`; null past its absolute lifetime. */
async function continueSession(
  deps: Deps,
  user: StoredUser,
  authTime: number,
  nowMs: number,
): Promise<IssuedToken | null> {
  const left = secondsLeft(deps, authTime, nowMs);
  if (left <= 0) return null;
  const ttlSeconds = Math.min(deps.config.tokenTtlMinutes * 60, left);
  const mark = { ver: versionOf(user), authTime };
  return { token: await issueToken(deps.secret, user, nowMs, ttlSeconds, mark), ttlSeconds };
}

/**
 * The account a verified token speaks for, or null when it is gone, deactivated or its
 * sessions were ended since. (A token the portal issues never outlives its session's absolute
 * lifetime: its expiry is capped there.)
 */
export async function sessionAccount(deps: Deps, claims: TokenClaims): Promise<User | null> {
  const stored = await liveAccount(deps, claims);
  return stored ? publicUser(stored) : null;
}

/** The token's account while it is active and has not ended its sessions since. */
async function liveAccount(deps: Deps, claims: TokenClaims): Promise<StoredUser | null> {
  const stored = await getUser(deps.kv, claims.sub);
  if (!stored || !stored.is_active || (claims.ver ?? 0) !== versionOf(stored)) return null;
  return stored;
}

/** A fresh token for the same session, or null when it may not be refreshed any more. */
export async function refreshSession(
  deps: Deps,
  claims: TokenClaims,
  nowMs: number,
): Promise<IssuedToken | null> {
  const stored = await liveAccount(deps, claims);
  return stored ? continueSession(deps, stored, startOf(claims), nowMs) : null;
}

/** The patch that ends every session of an account, for a change saved with it. */
export function endingSessions(cur: StoredUser): Pick<StoredUser, "session_version"> {
  return { session_version: versionOf(cur) + 1 };
}

/** Ends every session of account `id` (sign-out everywhere). */
export async function endSessions(deps: Deps, id: number): Promise<void> {
  const cur = await getUser(deps.kv, id);
  if (cur) await updateUser(deps.kv, id, endingSessions(cur), deps.now());
}
