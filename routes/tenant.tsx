/** Tenant pages of this slice. */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { requirePageRole } from "./_session.ts";
import { settingsRoutes } from "./settings.tsx";
import { tenantPageRoutes } from "./tenant_pages.tsx";
import { tenantBillingRoutes } from "./tenant_billing.tsx";
import { tenantPaymentRoutes } from "./tenant_payments.tsx";

/** Routes under /user. */
export function tenantRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/user", requirePageRole("user"));
  app.use("/user/*", requirePageRole("user"));
  app.route("/", tenantPageRoutes(deps));
  app.route("/", tenantBillingRoutes(deps));
  app.route("/", tenantPaymentRoutes(deps));
  app.route("/", settingsRoutes(deps, "/user/settings"));
  return app;
}
