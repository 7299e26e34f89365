/**
 * The sign-in's second step as pages: after the right password of an account with a second
 * factor, the code page (bound to the signed challenge, no session yet); `POST
 * /login/second-factor` finishes the sign-in. With `ADMIN_2FA_REQUIRED=true` an admin without
 * a second factor lands on its setup page.
 */
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { clientAddress, formString, readForm } from "./_http.ts";
import { formChecked } from "./_validate.ts";
import { portalOrigin, safeNext, setSessionCookie } from "./_session.ts";
import { Refusal } from "../services/refusal.ts";
import { secondStepSchema } from "../core/totp.ts";
import type { User } from "../core/types.ts";
import { completeSignIn } from "../services/accounts.ts";
import { hasSecondFactor } from "../services/second_factor.ts";
import { signInMessage, STATUS } from "./_auth_common.ts";
import { renderBarePage } from "./_page.tsx";
import { SecondStepPage } from "../components/SecondStepPage.tsx";

/** The admin's setup page of the second factor. */
export const ADMIN_FACTOR_SETUP = "/admin/settings/second-factor";

/** The code page of a challenge. */
export function secondStepPage(
  c: Context<AppEnv>,
  deps: Deps,
  challenge: string,
  next: string | null,
  error?: string,
  status: 200 | 400 | 401 | 403 | 429 = 200,
) {
  return renderBarePage(c, deps, c.var.t("second_factor.step.title"), SecondStepPage, {
    lang: c.var.lang,
    here: "/login",
    challenge,
    next,
    error,
  }, status);
}

/** Where a fresh session goes: the factor's setup for an admin who must have one, else `to`. */
export async function afterSignIn(deps: Deps, user: User, to: string): Promise<string> {
  if (user.role !== "admin" || !deps.config.admin2faRequired) return to;
  return await hasSecondFactor(deps, user.id) ? to : ADMIN_FACTOR_SETUP;
}

/** `POST /login/second-factor` (mount at `/`); `land` is where the role's session goes. */
export function secondStepRoutes(
  deps: Deps,
  land: (c: Context<AppEnv>, user: User, next: string | null) => string,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/login/second-factor", async (c) => {
    const form = await readForm(c);
    const next = safeNext(formString(form, "next"), portalOrigin(c, deps));
    const challenge = formString(form, "challenge");
    const parsed = formChecked(secondStepSchema, form);
    if (parsed instanceof Refusal) {
      const t = c.var.t;
      if (!challenge) return c.redirect("/login", 303);
      return secondStepPage(c, deps, challenge, next, t("second_factor.errors.code_required"), 400);
    }
    const res = await completeSignIn(deps, parsed, clientAddress(c, deps.config.trustProxy));
    if (!res.ok) {
      const message = res.reason === "invalid"
        ? c.var.t("second_factor.errors.challenge_expired")
        : signInMessage(c, res).message;
      return secondStepPage(c, deps, parsed.challenge, next, message, STATUS[res.reason]);
    }
    setSessionCookie(c, deps, res.token, res.ttlSeconds);
    return c.redirect(await afterSignIn(deps, res.user, land(c, res.user, next)), 303);
  });
  return app;
}

/**
 * With `ADMIN_2FA_REQUIRED=true`, an admin page other than Settings redirects an admin without
 * a second factor to its setup (behind the admin guard).
 */
export function requireAdminFactor(deps: Deps): MiddlewareHandler<UserEnv> {
  return async (c, next) => {
    if (!deps.config.admin2faRequired || c.req.path.startsWith("/admin/settings")) return next();
    if (await hasSecondFactor(deps, c.var.user.id)) return next();
    return c.redirect(ADMIN_FACTOR_SETUP);
  };
}
