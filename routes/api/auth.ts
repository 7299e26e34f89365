/**
 * The JSON session calls, mounted at `/auth`: `POST /login`, `POST /login/second-factor`,
 * `POST /register` (also mounted alone at `/api/auth/register`), `GET /verify`,
 * `POST /refresh`, `POST /logout`.
 *
 * An account with a second factor signs in with `totp_code` beside the password (six digits
 * from the app, or a recovery code); without it the answer is 401
 * `{code: "second_factor_required", challenge}`, and `POST /login/second-factor`
 * `{challenge, code}` finishes the sign-in within 5 minutes. A wrong code is 401
 * `invalid_second_factor_code`, counted by the sign-in throttle like a wrong password.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { createFactory } from "hono/factory";
import type { AppEnv, Deps } from "../_deps.ts";
import { badRequest, clientAddress } from "../_http.ts";
import { jsonInput } from "../_validate.ts";
import { setSessionCookie } from "../_session.ts";
import { registerSchema } from "../../core/schemas.ts";
import { apiLoginSchema, secondStepSchema } from "../../core/totp.ts";
import { completeSignIn, register, signIn, type SignInResult } from "../../services/accounts.ts";
import { refreshSession } from "../../services/sessions.ts";
import { Refusal } from "../../services/refusal.ts";
import { CODES, endSession, signInMessage, STATUS, tooMany } from "../_auth_common.ts";

const { createHandlers } = createFactory<AppEnv>();

/** A registration's body: refused under the registration's message, every field named. */
const registerInput = jsonInput(registerSchema, {
  message: "auth.errors.registration_failed",
  anyJson: true,
});

/** Registration with an access code, as JSON (spec 000: `POST /auth/register`). */
function registerJson(deps: Deps) {
  return createHandlers(registerInput, async (c) => {
    const res = await register(
      deps,
      c.req.valid("json"),
      c.var.lang,
      clientAddress(c, deps.config.trustProxy),
    );
    if (!res.ok && "throttled" in res) {
      return c.json({ message: tooMany(c, res.retryAfterMs), code: CODES.throttled }, 429);
    }
    if (!res.ok) {
      return badRequest(c, { [res.field]: res.key }, c.var.t("auth.errors.registration_failed"));
    }
    return c.json({ message: c.var.t("auth.register.success"), user: res.user }, 201);
  });
}

/** The JSON session routes (mount at `/auth`). */
export function authApiRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const address = (c: Context<AppEnv>) => clientAddress(c, deps.config.trustProxy);

  const answer = async (c: Context<AppEnv>, pending: Promise<SignInResult>) => {
    let res;
    try {
      res = await pending;
    } catch (e) {
      if (e instanceof Refusal) throw e; // busy: its own 503 with Retry-After
      // The store failing: the generic retry message (spec 000), not a 500.
      deps.log.log("error", "sign-in could not be checked", { error: String(e) });
      return c.json({ message: c.var.t("auth.errors.generic"), code: "sign_in_failed" }, 503);
    }
    if (!res.ok) {
      return c.json(
        {
          message: signInMessage(c, res).message,
          code: CODES[res.reason],
          ...(res.reason === "code_required" ? { challenge: res.challenge } : {}),
        },
        STATUS[res.reason],
      );
    }
    return c.json({
      access_token: res.token,
      token_type: "bearer",
      expires_in: res.ttlSeconds,
      user: res.user,
      message: c.var.t("auth.login.success"),
    });
  };

  app.post(
    "/login",
    jsonInput(apiLoginSchema, { message: "validation.failed", anyJson: true }),
    (c) => {
      const { totp_code, ...credentials } = c.req.valid("json");
      return answer(c, signIn(deps, { ...credentials, code: totp_code }, address(c)));
    },
  );

  app.post(
    "/login/second-factor",
    jsonInput(secondStepSchema, { message: "validation.failed", anyJson: true }),
    (c) => answer(c, completeSignIn(deps, c.req.valid("json"), address(c))),
  );

  app.post("/register", ...registerJson(deps));

  app.get("/verify", (c) => {
    const user = c.var.user;
    if (!user) return c.json({ message: c.var.t("errors.missing_token") }, 401);
    return c.json({ user });
  });

  app.post("/refresh", async (c) => {
    const session = c.var.session;
    const fresh = session ? await refreshSession(deps, session, deps.now()) : null;
    if (!fresh) return c.json({ message: c.var.t("errors.missing_token") }, 401);
    if (c.var.authVia === "cookie") setSessionCookie(c, deps, fresh.token, fresh.ttlSeconds);
    return c.json({
      access_token: fresh.token,
      token_type: "bearer",
      expires_in: fresh.ttlSeconds,
    });
  });

  app.post("/logout", async (c) => {
    await endSession(c, deps);
    return c.json({ message: c.var.t("auth.logged_out") });
  });

  return app;
}

/** `POST /api/auth/register` alone (mount at `/api/auth`). */
export function registerApiRoute(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/register", ...registerJson(deps));
  return app;
}
