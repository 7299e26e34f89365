/**
 * Openpay's webhook `POST /api/webhooks/openpay` (issue 12): anonymous but Basic-authenticated,
 * here and nowhere else (hono's `basicAuth`, a constant-time comparison with the configured
 * webhook user; 401 and nothing changed otherwise). Its callers authenticate by these
 * credentials, not by a session, so `routes/mod.ts` mounts it ahead of the session and CSRF
 * middleware (its messages in an anonymous caller's language). Every accepted event answered
 * 200 at once (services/payments/webhooks.ts).
 */
import { Hono, type MiddlewareHandler } from "hono";
import { basicAuth } from "hono/basic-auth";
import { getCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import type { AppEnv, Deps } from "../_deps.ts";
import { jsonInput } from "../_validate.ts";
import { webhookBodySchema } from "../../core/payment_events.ts";
import { LANG_COOKIE } from "../_session.ts";
import { pickLanguage } from "../../services/platform/i18n.ts";
import { receiveWebhook } from "../../services/payments/mod.ts";

/** Lets through only Openpay's Basic credentials (none configured: nobody), no session read. */
function openpayCredentials(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const lang = pickLanguage(null, getCookie(c, LANG_COOKIE));
    c.set("lang", lang);
    c.set("t", deps.i18n.t(lang));
    const refused = () => {
      c.header("WWW-Authenticate", 'Basic realm="openpay"');
      return c.json({ message: c.var.t("payments.errors.webhook_unauthorized") }, 401);
    };
    const { webhookUser: username, webhookPassword: password } = deps.config.openpay;
    if (!username || !password) return refused();
    try {
      return await basicAuth({ username, password })(c, next);
    } catch (e) {
      if (e instanceof HTTPException && e.status === 401) return refused();
      throw e;
    }
  };
}

/** Routes under /api/webhooks. */
export function webhookRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(openpayCredentials(deps));
  // Any body it cannot read is answered 400 with the one message, naming no field.
  const bad = "validation.bad_json";
  const body = jsonInput(webhookBodySchema, { message: bad, fields: "none", notJson: bad });
  app.post("/openpay", body, async (c) => {
    return c.json({ received: await receiveWebhook(deps, c.req.valid("json")) });
  });
  return app;
}
