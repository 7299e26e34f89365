/**
 * Access tokens: HS256 JWTs carrying the user id and role, the account's session version
 * (`ver`, raised to end every token at once) and when the session began (`auth_time`), with an
 * expiry.
 */
import { sign, verify } from "hono/jwt";
import type { Role } from "../../core/roles.ts";

/** What an access token says. */
export interface TokenClaims {
  sub: number;
  role: Role;
  iat: number;
  exp: number;
  /** The account's session version when the token was issued (absent: 0). */
  ver?: number;
  /** When the sign-in that began this session happened, in epoch seconds (absent: `iat`). */
  auth_time?: number;
}

/** The session a token continues: its version and when it began (epoch seconds). */
interface SessionMark {
  ver: number;
  authTime: number;
}

/** The HMAC keys of the secrets used so far (importing a key costs more than a signature). */
const keys = new Map<string, Promise<CryptoKey>>();

/** The HS256 key of `secret`, imported once per process. */
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keys.set(secret, key);
  }
  return key;
}

/** Refresh the token when fewer than this many seconds remain. */
const REFRESH_WINDOW_SECONDS = 5 * 60;

/** Signs an access token valid for `ttlSeconds` from `nowMs` (of session `mark`, if given). */
export async function issueToken(
  secret: string,
  user: { id: number; role: Role },
  nowMs: number,
  ttlSeconds: number,
  mark?: SessionMark,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const session = mark ? { ver: mark.ver, auth_time: mark.authTime } : {};
  return await sign(
    { sub: user.id, role: user.role, iat, exp: iat + ttlSeconds, ...session },
    await keyOf(secret),
    "HS256",
  );
}

/** Verifies a token's signature and expiry at `nowMs`; null when invalid or expired. */
export async function readToken(
  secret: string,
  token: string,
  nowMs: number,
): Promise<TokenClaims | null> {
  try {
    // Time is checked below against the injected clock, not hono's own Date.now().
    const claims = await verify(token, await keyOf(secret), {
      alg: "HS256",
      exp: false,
      iat: false,
      nbf: false,
    });
    if (typeof claims.sub !== "number" || typeof claims.exp !== "number") return null;
    if (claims.exp * 1000 <= nowMs) return null;
    return claims as unknown as TokenClaims;
  } catch {
    return null;
  }
}

/** True when a valid token should be replaced by a fresh one. */
export function needsRefresh(claims: TokenClaims, nowMs: number): boolean {
  return claims.exp - nowMs / 1000 < REFRESH_WINDOW_SECONDS;
}

/**
 * The account a token of ours was issued to, its signature checked but not its expiry nor its
 * session (null when it is not ours): who posted a form after their session ended.
 */
export async function tokenOwner(secret: string, token: string): Promise<number | null> {
  try {
    const claims = await verify(token, await keyOf(secret), {
      alg: "HS256",
      exp: false,
      iat: false,
      nbf: false,
    });
    return typeof claims.sub === "number" ? claims.sub : null;
  } catch {
    return null;
  }
}
