/**
 * Openpay's webhook `POST /api/webhooks/openpay` (issue 12): anonymous but Basic-authenticated
 * (401 and nothing changed otherwise); every accepted event answered 200 at once.
 */
import { Hono } from "hono";
import type { AppEnv, Deps } from "../_deps.ts";
import { readJson } from "../_http.ts";
import { receiveWebhook, webhookAuthorized } from "../../services/payments/mod.ts";

/** Routes under /api/webhooks. */
export function webhookRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/openpay", async (c) => {
    if (!webhookAuthorized(deps, c.req.header("authorization"))) {
      c.header("WWW-Authenticate", 'Basic realm="openpay"');
      return c.json({ message: c.var.t("payments.errors.webhook_unauthorized") }, 401);
    }
    const receipt = await receiveWebhook(deps, await readJson(c));
    if (receipt === "invalid") return c.json({ message: c.var.t("validation.bad_json") }, 400);
    return c.json({ received: receipt });
  });
  return app;
}
