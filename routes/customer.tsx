/** Customer (owner) pages of this slice. */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { requirePageRole } from "./_session.ts";
import { appPage } from "./_page.tsx";
import { MemberHome } from "../components/HomePage.tsx";
import { comingSoon } from "./_sections.tsx";
import { settingsRoutes } from "./settings.tsx";

/** Routes under /customer. */
export function customerRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/customer", requirePageRole("customer"));
  app.use("/customer/*", requirePageRole("customer"));
  app.get(
    "/customer",
    (c) =>
      appPage(
        c,
        deps,
        c.var.t("layout.nav.dashboard"),
        <MemberHome t={c.var.t} user={c.var.user!} />,
      ),
  );
  app.route("/", settingsRoutes(deps, "/customer/settings"));
  comingSoon(app, deps, [
    ["/customer/billing", "layout.nav.billing"],
    ["/customer/finances", "layout.nav.finances"],
  ]);
  return app;
}
