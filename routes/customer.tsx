/**
 * The customer (owner) area, mounted at `/customer` behind the customer guard (spec 001
 * section 2): the dashboard `/customer?chart=`, the finances roadmap, the installations and
 * their units (`customer_installations.tsx`) and the settings; the billing overview is
 * `customer_billing.tsx`, mounted at `/customer/billing`.
 */
import { answerByTag } from "./_page_tag.ts";
import { ownerDashboardTag } from "../services/page_tags.ts";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import { queryOf } from "./_validate.ts";
import { cityText } from "./_devices.tsx";
import { settingsRoutes } from "./settings.tsx";
import { invoiceFileRoutes } from "./invoice_files.ts";
import { customerInstallationRoutes } from "./customer_installations.tsx";
import { OWNER_CHARTS, ownerDashboard } from "../services/owner/mod.ts";
import { storageRefusal } from "../services/refusal.ts";
import { ownerFinances } from "../services/finances/mod.ts";
import {
  type InstallationRow,
  OwnerDashboard,
  OwnerDashboardError,
} from "../components/owner/OwnerDashboard.tsx";
import { FinancesPage } from "../components/owner/FinancesPage.tsx";
import { clockOf } from "../services/platform/clock.ts";

const dashboardQuery = z.object({
  chart: z.enum(OWNER_CHARTS, { error: "validation.invalid" }).default("power"),
});

/** Routes under /customer (mount at `/customer`). */
export function customerRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("customer"));

  app.get("/", async (c) => {
    const q = queryOf(c, dashboardQuery);
    const { t, user } = c.var;
    const title = t("layout.nav.dashboard");
    const known = await answerByTag(c, deps, () => ownerDashboardTag(deps, user));
    if (known) return known;
    try {
      const data = await ownerDashboard(deps, user, q.chart);
      const rows: InstallationRow[] = data.stations.map(({ station: s, zone }) => ({
        id: s.id,
        name: s.name,
        location: cityText(t, s.location),
        serial_number: s.serial_number,
        online: s.status === "online",
        last_seen: s.last_seen,
        customer: s.customer?.full_name ?? null,
        zone: s.zone?.name ?? null,
        type: zone ? t(`zones.tariff_types.${zone.tariff_type}`) : null,
        created_at: s.created_at,
      }));
      const offset = clockOf(deps).offsetMinutes();
      return renderPage(c, deps, title, OwnerDashboard, { user, data, rows, offset });
    } catch (e) {
      const storage = storageRefusal(e);
      if (storage) throw storage;
      deps.log.log("error", "owner dashboard failed", { error: String(e) });
      return renderPage(c, deps, title, OwnerDashboardError, { user }, 503);
    }
  });

  app.get("/finances", async (c) => {
    let figures = null;
    try {
      figures = await ownerFinances(deps, c.var.user);
    } catch (e) {
      const storage = storageRefusal(e);
      if (storage) throw storage;
      deps.log.log("error", "owner finances failed", { error: String(e) });
    }
    return renderPage(c, deps, c.var.t("customer.finances_placeholder.title"), FinancesPage, {
      figures,
      month: clockOf(deps).month(),
    });
  });

  app.route("/installations", customerInstallationRoutes(deps));
  app.route("/", settingsRoutes(deps, "/customer/settings", "/settings") as Hono<AppEnv>);
  app.route("/", invoiceFileRoutes(deps) as Hono<AppEnv>);
  return app;
}
