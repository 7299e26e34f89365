/** Tenant pages of this slice. */
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { settingsRoutes } from "./settings.tsx";
import { tenantPageRoutes } from "./tenant_pages.tsx";
import { tenantBillingRoutes } from "./tenant_billing.tsx";
import { tenantPaymentRoutes } from "./tenant_payments.tsx";
import { invoiceFileRoutes } from "./invoice_files.ts";

/** Routes under /user (mount at `/user`). */
export function tenantRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("user"));
  app.route("/", tenantPageRoutes(deps));
  app.route("/", tenantBillingRoutes(deps));
  app.route("/", tenantPaymentRoutes(deps));
  app.route("/", invoiceFileRoutes(deps));
  app.route("/", settingsRoutes(deps, "/user/settings", "/settings", { tenantProfile: true }));
  return app;
}
