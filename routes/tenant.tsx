/** Tenant pages of this slice. */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { requirePageRole } from "./_session.ts";
import { comingSoon } from "./_sections.tsx";
import { settingsRoutes } from "./settings.tsx";
import { tenantPageRoutes } from "./tenant_pages.tsx";
import { tenantBillingRoutes } from "./tenant_billing.tsx";

/** Routes under /user. */
export function tenantRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/user", requirePageRole("user"));
  app.use("/user/*", requirePageRole("user"));
  app.route("/", tenantPageRoutes(deps));
  app.route("/", tenantBillingRoutes(deps));
  app.route("/", settingsRoutes(deps, "/user/settings"));
  comingSoon(app, deps, [
    ["/user/payments", "layout.nav.payments"],
  ]);
  return app;
}
