/** What the sign-in pages and the JSON session calls share: throttle answers, sign-out. */
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { clearSession } from "./_session.ts";
import type { SignInResult } from "../services/accounts.ts";
import { endSessions } from "../services/sessions.ts";

/** Sets Retry-After and words the wait of a throttled attempt. */
export function tooMany(c: Context<AppEnv>, retryAfterMs: number): string {
  c.header("Retry-After", String(Math.ceil(retryAfterMs / 1000)));
  return c.var.t("auth.errors.too_many_attempts", { minutes: Math.ceil(retryAfterMs / 60_000) });
}

export function signInMessage(c: Context<AppEnv>, res: Exclude<SignInResult, { ok: true }>) {
  const t = c.var.t;
  if (res.reason === "disabled") {
    return { message: t("auth.errors.account_disabled"), tone: "warning" as const };
  }
  if (res.reason === "invalid_code") {
    return { message: t("second_factor.errors.code_invalid"), tone: "error" as const };
  }
  if (res.reason === "code_required") {
    return { message: t("second_factor.code_required"), tone: "warning" as const };
  }
  if (res.reason === "throttled") {
    return { message: tooMany(c, res.retryAfterMs), tone: "error" as const };
  }
  return { message: t("auth.errors.invalid_credentials"), tone: "error" as const };
}

export const STATUS = {
  invalid: 401,
  disabled: 403,
  throttled: 429,
  invalid_code: 401,
  code_required: 401,
} as const;
export const CODES = {
  invalid: "invalid_credentials",
  invalid_code: "invalid_second_factor_code",
  code_required: "second_factor_required",
  disabled: "account_disabled",
  throttled: "too_many_attempts",
} as const;

/** Signing out ends every session of the account, on every device. */
export async function endSession(c: Context<AppEnv>, deps: Deps): Promise<void> {
  if (c.var.user) await endSessions(deps, c.var.user.id);
  clearSession(c);
}
