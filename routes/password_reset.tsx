/**
 * Password reset (issue 28): the `/forgot-password` and `/reset-password` pages and
 * `POST /api/auth/forgot-password` `{email}`, `POST /api/auth/reset-password`
 * `{token, password}`; the admin's "send reset link" is in `routes/admin_messages.tsx`.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { z } from "zod";
import { clientAddress, readForm, translateErrors } from "./_http.ts";
import { formChecked, jsonInput, pageText, queryInput } from "./_validate.ts";
import { tooMany } from "./_auth_common.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { renderBarePage } from "./_page.tsx";
import { forgotPasswordSchema, resetPasswordSchema } from "../core/password_reset_input.ts";
import {
  requestPasswordReset,
  resetPassword,
  resetTokenValid,
} from "../services/password_reset.ts";
import { ForgotPasswordPage, ResetPasswordPage } from "../components/PasswordResetPages.tsx";

/** The pages and calls (mount at `/`). */
export function passwordResetRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const address = (c: Context<AppEnv>) => clientAddress(c, deps.config.trustProxy);
  const kick = () => deps.mail?.kick();

  const forgotPage = (
    c: Context<AppEnv>,
    extra: { email?: string; sent?: boolean; error?: string; fieldErrors?: Record<string, string> },
    status: 200 | 400 | 429 = 200,
  ) =>
    renderBarePage(c, deps, c.var.t("messages.reset.forgot_title"), ForgotPasswordPage, {
      lang: c.var.lang,
      here: "/forgot-password",
      ...extra,
    }, status);

  app.get("/forgot-password", (c) => forgotPage(c, {}));

  app.post("/forgot-password", async (c) => {
    const form = await readForm(c);
    const email = typeof form.email === "string" ? form.email : "";
    const parsed = formChecked(forgotPasswordSchema, form);
    if (parsed instanceof Refusal) {
      return forgotPage(c, { email, fieldErrors: translateErrors(c, parsed.fields) }, 400);
    }
    const res = await requestPasswordReset(deps, parsed.email, address(c));
    if (!res.ok) return forgotPage(c, { email, error: tooMany(c, res.retryAfterMs) }, 429);
    kick();
    return forgotPage(c, { sent: true });
  });

  const resetPage = (
    c: Context<AppEnv>,
    token: string,
    extra: { invalidToken?: boolean; fieldErrors?: Record<string, string> },
    status: 200 | 400 = 200,
  ) =>
    renderBarePage(c, deps, c.var.t("messages.reset.reset_title"), ResetPasswordPage, {
      lang: c.var.lang,
      here: `/reset-password?token=${encodeURIComponent(token)}`,
      token,
      ...extra,
    }, status);

  app.get("/reset-password", queryInput(z.object({ token: pageText })), async (c) => {
    const token = (c.req.valid("query").token ?? "").slice(0, 200);
    const valid = await resetTokenValid(deps, token);
    return resetPage(c, token, { invalidToken: !valid }, valid ? 200 : 400);
  });

  app.post("/reset-password", async (c) => {
    const form = await readForm(c);
    const token = typeof form.token === "string" ? form.token.slice(0, 200) : "";
    const parsed = formChecked(resetPasswordSchema, form);
    if (parsed instanceof Refusal) {
      const errors = translateErrors(c, parsed.fields);
      return resetPage(c, token, { invalidToken: "token" in errors, fieldErrors: errors }, 400);
    }
    const res = await attempt(resetPassword(deps, parsed.token, parsed.password));
    if (res instanceof Error) {
      const errors = translateErrors(c, { ...res.fields });
      return resetPage(c, token, { invalidToken: "token" in errors, fieldErrors: errors }, 400);
    }
    kick();
    return c.redirect("/login?reset=1", 303);
  });

  app.post("/api/auth/forgot-password", jsonInput(forgotPasswordSchema), async (c) => {
    const res = await requestPasswordReset(deps, c.req.valid("json").email, address(c));
    if (!res.ok) {
      const message = tooMany(c, res.retryAfterMs);
      return c.json({ message, error: "too_many_attempts" }, 429);
    }
    kick();
    return c.json({ message: c.var.t("messages.reset.forgot_sent") });
  });

  app.post("/api/auth/reset-password", jsonInput(resetPasswordSchema), async (c) => {
    const body = c.req.valid("json");
    await resetPassword(deps, body.token, body.password);
    kick();
    return c.json({ message: c.var.t("messages.reset.done") });
  });

  return app;
}
