/**
 * Tenant payments API (spec 001 section 7): `GET /api/tenant-payments/summary`,
 * `GET /api/tenant-payments/{id}`, `POST /api/tenant-payments/{id}/pay` (JSON, no body fields →
 * the whole answer with `spei_details`). Tenants only, each seeing only their own bills.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import type { AppEnv } from "../_deps.ts";
import { pathId } from "../_http.ts";
import { ownOrigin, requireApiRole } from "../_session.ts";
import {
  PAYMENT_ERRORS,
  paymentsSummary,
  referenceFor,
  tenantPayment,
} from "../../services/payments/mod.ts";
import { paymentJson, speiDetailsJson, summaryJson } from "./_payment_json.ts";

/** Routes under /api/tenant-payments. */
export function tenantPaymentApiRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireApiRole("user"));

  app.get(
    "/summary",
    async (c) => c.json(summaryJson(await paymentsSummary(deps, c.var.user), ownOrigin(c, deps))),
  );

  app.get("/:id", async (c) => {
    const id = pathId(c, PAYMENT_ERRORS.notFound);
    return c.json(paymentJson(await tenantPayment(deps, c.var.user, id), ownOrigin(c, deps)));
  });

  app.post("/:id/pay", async (c) => {
    const id = pathId(c, PAYMENT_ERRORS.notFound);
    await referenceFor(deps, c.var.user, id);
    const p = await tenantPayment(deps, c.var.user, id);
    const origin = ownOrigin(c, deps);
    return c.json({ ...paymentJson(p, origin), spei_details: speiDetailsJson(p, origin) });
  });
  return app as unknown as Hono<AppEnv>;
}
