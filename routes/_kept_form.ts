/**
 * A form posted after the session ended comes back after sign-in (`services/kept_forms.ts`
 * says why this is safe). The session cookie outlives its token by a grace time
 * (`EXPIRED_COOKIE_GRACE_SECONDS`) so that such a post still names its account; the post is answered with the sign-in page
 * ("your session ended, your changes are kept") and, once that account is signed in again,
 * the form page it came from shows the kept values filled in by the `FormRestore` island.
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv, Deps } from "./_deps.ts";
import { readForm } from "./_http.ts";
import { LANG_COOKIE, portalOrigin, safeNext, TOKEN_COOKIE } from "./_session.ts";
import { getAccount } from "../services/accounts.ts";
import { tokenOwner } from "../services/platform/tokens.ts";
import {
  keepForm,
  KEPT_FORM_MINUTES,
  type RestoredForm,
  restoreForm,
} from "../services/kept_forms.ts";

/** The cookie naming the kept form (httpOnly; only its account's session gets it back). */
/** The cookie naming a form kept for its next page. */
export const KEPT_COOKIE = "kept_form";
/** Posts that are not a signed-in page's form. */
const NOT_A_PAGE_FORM = /^\/(login|register|logout|auth|api|logging|legal)(\/|$)/;

/** The page a post came from: its same-origin Referer, else the path it posted to. */
function formPage(c: Context<AppEnv>, origin: string): string {
  const referer = c.req.header("referer");
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === origin) {
        const page = safeNext(url.pathname + url.search, origin);
        if (page) return page;
      }
    } catch { /* not a URL: use the post's own path */ }
  }
  return safeNext(c.req.path, origin) ?? "/";
}

/**
 * Before the page guards: a form post without a live session whose cookie still names its
 * account is kept and answered with the sign-in page, which comes back to the form; any other
 * post goes on to the guards as before.
 */
export function keepExpiredPosts(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST" || c.var.user || NOT_A_PAGE_FORM.test(c.req.path)) return next();
    if (!(c.req.header("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
      return next();
    }
    const token = getCookie(c, TOKEN_COOKIE);
    const owner = token ? await tokenOwner(deps.secret, token) : null;
    if (owner === null) return next();
    const origin = portalOrigin(c, deps);
    const page = formPage(c, origin);
    const form = await readForm(c);
    const fields = Object.entries(form).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x])
    );
    const id = await keepForm(deps, { owner, page, action: c.req.path, fields });
    if (id) {
      setCookie(c, KEPT_COOKIE, id, {
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        maxAge: KEPT_FORM_MINUTES * 60,
      });
    }
    // The sign-in page in the language of the account whose session ended.
    const account = await getAccount(deps, owner).catch(() => null);
    if (account) {
      setCookie(c, LANG_COOKIE, account.language, {
        path: "/",
        sameSite: "Lax",
        maxAge: 365 * 86400,
      });
    }
    const kept = id ? "&kept=1" : "";
    return c.redirect(`/login?next=${encodeURIComponent(page)}&expired=1${kept}`, 303);
  };
}

/** The form kept for the signed-in user on this page (a GET), given back once; else null. */
export async function keptFormOf(c: Context<AppEnv>, deps: Deps): Promise<RestoredForm | null> {
  const id = getCookie(c, KEPT_COOKIE);
  const user = c.var.user;
  if (!id || !user || c.req.method !== "GET") return null;
  const url = new URL(c.req.url);
  const res = await restoreForm(deps, id, user.id, url.pathname + url.search);
  if (res !== "elsewhere") deleteCookie(c, KEPT_COOKIE, { path: "/" });
  return res === "elsewhere" ? null : res;
}
