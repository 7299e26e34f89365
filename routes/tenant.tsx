/** Tenant pages of this slice. */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { requirePageRole } from "./_session.ts";
import { appPage } from "./_page.tsx";
import { MemberHome } from "../components/HomePage.tsx";
import { comingSoon } from "./_sections.tsx";
import { settingsRoutes } from "./settings.tsx";

/** Routes under /user. */
export function tenantRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/user", requirePageRole("user"));
  app.use("/user/*", requirePageRole("user"));
  app.get(
    "/user",
    (c) =>
      appPage(
        c,
        deps,
        c.var.t("layout.nav.dashboard"),
        <MemberHome t={c.var.t} user={c.var.user!} />,
      ),
  );
  app.route("/", settingsRoutes(deps, "/user/settings"));
  comingSoon(app, deps, [
    ["/user/consumption", "layout.nav.consumption"],
    ["/user/pricing", "layout.nav.pricing_user"],
    ["/user/billing", "layout.nav.billing"],
    ["/user/payments", "layout.nav.payments"],
  ]);
  return app;
}
