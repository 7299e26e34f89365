/** Admin pages of this slice: the home, and the sections that later work fills in. */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { requirePageRole } from "./_session.ts";
import { appPage } from "./_page.tsx";
import { AdminHome } from "../components/HomePage.tsx";
import { userStats } from "../services/accounts.ts";
import { deviceStats } from "../services/devices.ts";
import { comingSoon } from "./_sections.tsx";
import { adminUserRoutes } from "./admin_users.tsx";
import { adminDeviceRoutes } from "./admin_devices.tsx";
import { settingsRoutes } from "./settings.tsx";

/** Routes under /admin. */
export function adminRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/admin", requirePageRole("admin"));
  app.use("/admin/*", requirePageRole("admin"));
  app.get("/admin", async (c) => {
    return appPage(
      c,
      deps,
      c.var.t("home.admin.title"),
      <AdminHome
        t={c.var.t}
        stats={await userStats(deps)}
        devices={await deviceStats(deps, c.var.user!)}
      />,
    );
  });
  app.route("/", adminUserRoutes(deps));
  app.route("/", adminDeviceRoutes(deps));
  app.route("/", settingsRoutes(deps, "/admin/settings"));
  comingSoon(app, deps, [
    ["/admin/pricing", "layout.nav.pricing"],
    ["/admin/units-billing", "layout.nav.units_billing"],
    ["/admin/stations-billing", "layout.nav.stations_billing"],
    ["/admin/finances", "layout.nav.finances"],
    ["/admin/stats", "layout.nav.system_health"],
  ]);
  return app;
}
