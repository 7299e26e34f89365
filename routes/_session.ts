/**
 * Sessions: who is asking (bearer token or cookie), in which language, whether a cookie
 * post comes from our own pages, and the guards for pages and the API.
 */
import { apiKeyAccount } from "../services/api_keys.ts";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Role } from "../core/roles.ts";
import { refreshSession, sessionAccount } from "../services/sessions.ts";
import { pickLanguage } from "../services/platform/i18n.ts";
import { needsRefresh, readToken, type TokenClaims } from "../services/platform/tokens.ts";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import type { User } from "../core/types.ts";

/** Name of the session cookie (httpOnly). */
export const TOKEN_COOKIE = "token";
/** How long the session cookie is kept after its token expired (see `_kept_form.ts`). */
export const EXPIRED_COOKIE_GRACE_SECONDS = 12 * 3600;
/** Name of the cookie keeping the language chosen before sign-in. */
export const LANG_COOKIE = "auth_language";
/** Name of the cookie keeping the last visited route (cleared on sign-out). */
export const LAST_ROUTE_COOKIE = "last_route";

/**
 * Sets the session cookie for a fresh token; `Secure` when the portal is reached over https
 * (`PUBLIC_URL`'s scheme, else the request's). The cookie outlives the token by a grace time:
 * an expired token opens nothing, but a form posted with it still names its account
 * (`_kept_form.ts`).
 */
export function setSessionCookie(
  c: Context<AppEnv>,
  deps: Deps,
  token: string,
  ttlSeconds: number,
) {
  setCookie(c, TOKEN_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: new URL(portalOrigin(c, deps)).protocol === "https:",
    maxAge: ttlSeconds + EXPIRED_COOKIE_GRACE_SECONDS,
  });
}

/** Removes the session and the stored last route. */
export function clearSession(c: Context<AppEnv>) {
  deleteCookie(c, TOKEN_COOKIE, { path: "/" });
  deleteCookie(c, LAST_ROUTE_COOKIE, { path: "/" });
}

/**
 * Resolves the user from `Authorization: Bearer` or the session cookie, checks that the
 * account still exists, is active and has not ended its sessions since, refreshes a cookie
 * token with under 5 minutes left (within the session's absolute lifetime), and picks the
 * language.
 */
export function sessionMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
    const cookie = bearer ? null : getCookie(c, TOKEN_COOKIE) ?? null;
    const token = bearer ?? cookie;
    let user: User | null = null;
    let session: TokenClaims | null = null;
    const key = bearer?.startsWith("pk_") ? await apiKeyAccount(deps, bearer) : null;
    if (key) {
      c.set("apiKey", key.key);
      user = key.user;
    } else if (token) {
      const now = deps.now();
      session = await readToken(deps.secret, token, now);
      if (session) user = await sessionAccount(deps, session);
      if (user && session && cookie && needsRefresh(session, now)) {
        const fresh = await refreshSession(deps, session, now);
        if (fresh) setSessionCookie(c, deps, fresh.token, fresh.ttlSeconds);
      }
      if (!user) session = null;
      if (!user && cookie) deleteCookie(c, TOKEN_COOKIE, { path: "/" });
    }
    c.set("user", user);
    c.set("session", session);
    c.set("authVia", user ? (bearer ? "bearer" : "cookie") : null);
    const lang = pickLanguage(user?.language, getCookie(c, LANG_COOKIE));
    c.set("lang", lang);
    c.set("t", deps.i18n.t(lang));
    await next();
  };
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses cross-site posts that would ride on the session cookie: an unsafe request not
 * authenticated by a bearer token must come from the portal's own origin, scheme included
 * (`PUBLIC_URL`'s, else the request's): the Origin header, or Sec-Fetch-Site same-origin for
 * browsers that omit Origin. Routes whose callers authenticate otherwise (Openpay's webhook,
 * Basic credentials) are mounted ahead of it.
 */
export function csrfMiddleware(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE.has(c.req.method) || /^Bearer\s/i.test(c.req.header("authorization") ?? "")) {
      return next();
    }
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    let sameOrigin: boolean;
    if (origin && origin !== "null") {
      sameOrigin = origin === ownOrigin(c, deps);
    } else if (site) {
      sameOrigin = site === "same-origin" || site === "none";
    } else {
      // Neither header: not a browser (browsers send Origin on every POST), so no
      // ambient cookie can be abused; allow only when there is no session cookie.
      sameOrigin = getCookie(c, TOKEN_COOKIE) === undefined;
    }
    if (!sameOrigin) {
      return c.json({ message: c.var.t("errors.cross_site") }, 403);
    }
    await next();
  };
}

/** The origin a browser on the portal sends: `PUBLIC_URL`'s, else scheme and Host header. */
export function ownOrigin(c: Context, deps: Deps): string {
  if (deps.config.publicUrl) return deps.config.publicUrl.origin;
  const url = new URL(c.req.url);
  return `${url.protocol}//${c.req.header("host") ?? url.host}`;
}

/**
 * Guard for pages of `role`: anonymous to /login keeping the location, other roles to /; a
 * GET is remembered as the last route (once per request, so nested guards agree). Handlers
 * behind it read the signed-in user as `c.var.user`, typed non-null.
 */
export function requireRole(role: Role): MiddlewareHandler<UserEnv> {
  return async (c, next) => {
    const user = c.var.user;
    if (!user) {
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`);
    }
    if (user.role !== role) return c.redirect("/");
    if (c.req.method === "GET" && !c.var.routeRecorded) {
      const url = new URL(c.req.url);
      setCookie(c, LAST_ROUTE_COOKIE, url.pathname + url.search, {
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
      });
      c.set("routeRecorded", true);
    }
    await next();
  };
}

/**
 * Guard for a page any signed-in user may see: anonymous to /login keeping the location.
 * Handlers behind it read `c.var.user` typed non-null.
 */
export function requireUser(): MiddlewareHandler<UserEnv> {
  return requirePageUser() as unknown as MiddlewareHandler<UserEnv>;
}

/** Guard for any signed-in page. */
function requirePageUser(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.var.user) {
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`);
    }
    await next();
  };
}

/**
 * Guard for the API: 401 without a session, 403 when the role is not among `roles` (any
 * role when none is given). Handlers behind it read `c.var.user` typed non-null.
 */
export function requireApiRole(...roles: Role[]): MiddlewareHandler<UserEnv> {
  return async (c, next) => {
    const user = c.var.user;
    if (!user) return c.json({ message: c.var.t("errors.missing_token") }, 401);
    if (roles.length && !roles.includes(user.role)) {
      return c.json({ message: c.var.t("errors.forbidden") }, 403);
    }
    await next();
  };
}

/** The portal's own origin: `PUBLIC_URL`'s when set, else the request's. */
export function portalOrigin(c: Context, deps: Deps): string {
  return deps.config.publicUrl?.origin ?? new URL(c.req.url).origin;
}

const NO_RETURN = /^\/(login|register|logout)(\/|$)/;

/**
 * A local path to go to after sign-in: `next` resolved against the portal's `origin` the way a
 * browser would (tabs and line breaks dropped, backslashes as slashes); anything that lands on
 * another origin, on a protocol-relative path or on the sign-in pages is ignored (null).
 */
export function safeNext(next: string | undefined | null, origin: string): string | null {
  if (!next || !next.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname.startsWith("//") || NO_RETURN.test(url.pathname)) {
    return null;
  }
  const path = url.pathname + url.search + url.hash;
  return path.length <= 512 ? path : null;
}
