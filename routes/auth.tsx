/**
 * Sessions: the sign-in and registration pages, sign-out and the root redirect. The JSON
 * session calls are in `routes/api/auth.ts`.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import type { AppEnv, Deps } from "./_deps.ts";
import { clientAddress, formString, readForm, translateErrors } from "./_http.ts";
import { formChecked, pageText as loose, queryInput } from "./_validate.ts";
import { Refusal } from "../services/refusal.ts";
import {
  LANG_COOKIE,
  LAST_ROUTE_COOKIE,
  portalOrigin,
  safeNext,
  setSessionCookie,
} from "./_session.ts";
import { loginSchema, PHONE_COUNTRIES, registerFormSchema } from "../core/schemas.ts";
import { homeOf, isLanguage, type Role, roleOfPath } from "../core/roles.ts";
import { register, signIn } from "../services/accounts.ts";
import { endSession, signInMessage, STATUS, tooMany } from "./_auth_common.ts";
import { renderBarePage } from "./_page.tsx";
import { LoginPage } from "../components/LoginPage.tsx";
import { RegisterPage, type RegisterValues } from "../components/RegisterPage.tsx";
import { legalDoc } from "./legal.tsx";

/** Where to go after signing in: the asked-for page of the same role, else the home. */
function landing(c: Context<AppEnv>, deps: Deps, role: Role, next: string | null) {
  const origin = portalOrigin(c, deps);
  const wanted = safeNext(next, origin) ?? safeNext(getCookie(c, LAST_ROUTE_COOKIE), origin);
  if (wanted) {
    const owner = roleOfPath(new URL(wanted, "http://x").pathname);
    if (owner === null || owner === role) return wanted;
  }
  return homeOf(role);
}

/**
 * The sign-in pages' query: `?lang=` (switches the language, then is dropped from the address),
 * `?next=` (checked against the portal's origin where it is used), `?registered=1`.
 */
const pageQuery = z.object({
  lang: loose,
  next: loose,
  registered: loose,
  reset: loose,
  expired: loose,
  kept: loose,
});

/**
 * Applies `lang` (stored as the pre-sign-in choice) and tells where to redirect, if anywhere.
 */
function languageSwitch(c: Context<AppEnv>, lang: string | undefined): string | null {
  if (lang === undefined) return null;
  if (isLanguage(lang)) {
    setCookie(c, LANG_COOKIE, lang, { path: "/", sameSite: "Lax", maxAge: 365 * 86400 });
  }
  const url = new URL(c.req.url);
  url.searchParams.delete("lang");
  return url.pathname + url.search;
}

/** The sign-in pages, sign-out and the root redirect (mount at `/`). */
export function authRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const address = (c: Context<AppEnv>) => clientAddress(c, deps.config.trustProxy);

  app.get("/", (c) => {
    const user = c.var.user;
    return c.redirect(user ? homeOf(user.role) : "/login");
  });

  // ---- pages -------------------------------------------------------------------------
  app.get("/login", queryInput(pageQuery), (c) => {
    const q = c.req.valid("query");
    const redirect = languageSwitch(c, q.lang);
    if (redirect) return c.redirect(redirect);
    if (c.var.user) return c.redirect(landing(c, deps, c.var.user.role, q.next ?? null));
    const url = new URL(c.req.url);
    return renderBarePage(c, deps, c.var.t("auth.login.title"), LoginPage, {
      lang: c.var.lang,
      here: url.pathname + url.search,
      next: safeNext(q.next, portalOrigin(c, deps)),
      registered: q.registered === "1",
      reset: q.reset === "1",
      expired: q.expired === "1" ? (q.kept === "1" ? "kept" : "expired") : undefined,
    });
  });

  app.post("/login", async (c) => {
    const form = await readForm(c);
    const next = typeof form.next === "string" ? safeNext(form.next, portalOrigin(c, deps)) : null;
    const here = next ? `/login?next=${encodeURIComponent(next)}` : "/login";
    const email = typeof form.email === "string" ? form.email : "";
    const parsed = formChecked(loginSchema, form);
    const render = (
      status: 400 | 401 | 403 | 429 | 503,
      extra: {
        error?: { message: string; tone: "warning" | "error" };
        fieldErrors?: Record<string, string>;
      },
    ) =>
      renderBarePage(c, deps, c.var.t("auth.login.title"), LoginPage, {
        lang: c.var.lang,
        here,
        next,
        email,
        ...extra,
      }, status);
    if (parsed instanceof Refusal) {
      return render(400, { fieldErrors: translateErrors(c, parsed.fields) });
    }
    const res = await signIn(deps, parsed, address(c)).catch((e: unknown) => {
      // Not the person's fault (busy, the store failing): the form again, to retry.
      deps.log.log("error", "sign-in could not be checked", { error: String(e) });
      const busy = e instanceof Refusal && e.kind === "unavailable";
      if (busy) c.header("Retry-After", "5");
      return { ok: false, reason: "unchecked", busy } as const;
    });
    if (!res.ok && res.reason === "unchecked") {
      const message = c.var.t(res.busy ? "errors.busy" : "auth.errors.generic");
      return render(503, { error: { message, tone: "error" } });
    }
    if (!res.ok) {
      return render(STATUS[res.reason], { error: signInMessage(c, res) });
    }
    setSessionCookie(c, deps, res.token, res.ttlSeconds);
    return c.redirect(landing(c, deps, res.user.role, next), 303);
  });

  const registerPage = (
    c: Context<AppEnv>,
    values: RegisterValues,
    fieldErrors: Record<string, string>,
    status: 200 | 400 | 429 = 200,
    error?: string,
  ) => {
    const url = new URL(c.req.url);
    return renderBarePage(c, deps, c.var.t("auth.register.title"), RegisterPage, {
      lang: c.var.lang,
      here: url.pathname,
      values,
      fieldErrors,
      error,
      terms: legalDoc(deps, "terms"),
      privacy: legalDoc(deps, "privacy"),
    }, status);
  };

  app.get("/register", queryInput(pageQuery), (c) => {
    const redirect = languageSwitch(c, c.req.valid("query").lang);
    if (redirect) return c.redirect(redirect);
    if (c.var.user) return c.redirect(homeOf(c.var.user.role));
    return registerPage(c, {}, {});
  });

  app.post("/register", async (c) => {
    const form = await readForm(c);
    const str = (k: string) => formString(form, k);
    const country = PHONE_COUNTRIES.find((p) => p.id === str("phone_country")) ??
      PHONE_COUNTRIES[0];
    const digits = str("phone").replace(/[\s()-]/g, "");
    const values: RegisterValues = {
      full_name: str("full_name"),
      email: str("email"),
      phone_country: country.id,
      phone: str("phone"),
      accessCode: str("accessCode"),
      terms: str("terms") === "on",
    };
    const parsed = formChecked(registerFormSchema, { ...form, phone: `${country.dial}${digits}` });
    if (parsed instanceof Refusal) {
      return registerPage(c, values, translateErrors(c, parsed.fields), 400);
    }
    const res = await register(deps, parsed, c.var.lang, address(c));
    if (!res.ok && "throttled" in res) {
      return registerPage(c, values, {}, 429, tooMany(c, res.retryAfterMs));
    }
    if (!res.ok) {
      return registerPage(
        c,
        values,
        { [res.field]: c.var.t(res.key) },
        400,
        c.var.t("auth.errors.registration_failed"),
      );
    }
    return c.redirect("/login?registered=1", 303);
  });

  app.post("/logout", async (c) => {
    await endSession(c, deps);
    return c.redirect("/login", 303);
  });

  return app;
}
