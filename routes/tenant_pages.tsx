/**
 * Tenant pages (spec 001 section 2): the dashboard `/user`, the consumption overview and a
 * unit's tabs `/user/consumption/{id}?tab=`, and the pricing `/user/pricing`. Each is rendered on
 * the server from `services/tenant/` and works without JavaScript.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { appPage, renderPage } from "./_page.tsx";
import { pathId } from "./_http.ts";
import { queryOf } from "./_validate.ts";
import { z } from "zod";
import { Refusal, storageRefusal } from "../services/refusal.ts";
import {
  consumptionOverview,
  DASHBOARD_CHARTS,
  tenantDashboard,
  tenantPricing,
  UNIT_NOT_FOUND,
  unitDetail,
} from "../services/tenant/mod.ts";
import { UNIT_TABS } from "../core/tenant_queries.ts";
import { DashboardError, TenantDashboard } from "../components/tenant/TenantDashboard.tsx";
import { AlertInsights } from "../components/alerts/AlertInsights.tsx";
import { openAlertsView } from "../services/alerts/mod.ts";
import { ConsumptionPage } from "../components/tenant/ConsumptionPage.tsx";
import { UnitView } from "../components/tenant/UnitView.tsx";
import { PricingError, PricingPage } from "../components/tenant/PricingPage.tsx";
import { clockOf } from "../services/platform/clock.ts";
import { answerByTag } from "./_page_tag.ts";
import { tenantDashboardTag } from "../services/page_tags.ts";

const dashboardQuery = z.object({
  chart: z.enum(DASHBOARD_CHARTS, { error: "validation.invalid" }).default("power"),
});
const unitQuery = z.object({
  tab: z.enum(UNIT_TABS, { error: "validation.invalid" }).default("overview"),
});

/** The tenant's dashboard, consumption and pricing pages (guarded by `tenantRoutes`). */
export function tenantPageRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const off = clockOf(deps).offsetMinutes();

  app.get("/", async (c) => {
    const q = queryOf(c, dashboardQuery);
    const t = c.var.t;
    const user = c.var.user;
    const known = await answerByTag(c, deps, () => tenantDashboardTag(deps, user));
    if (known) return known;
    let body;
    try {
      const data = await tenantDashboard(deps, user, q.chart);
      const insights = await openAlertsView(deps, user, c.var.lang, {}, "/user");
      body = (
        <>
          <TenantDashboard t={t} user={user} data={data} offset={off} />
          <AlertInsights t={t} view={insights} />
        </>
      );
    } catch (e) {
      // A failing readings store is said as such (503, data unavailable), never as zeros.
      const storage = storageRefusal(e);
      if (storage) throw storage;
      deps.log.log("error", "tenant dashboard failed", { error: String(e) });
      return renderPage(c, deps, t("layout.nav.dashboard"), DashboardError, { user }, 500);
    }
    return appPage(c, deps, t("layout.nav.dashboard"), body);
  });

  app.get("/consumption", async (c) => {
    const data = await consumptionOverview(deps, c.var.user);
    return renderPage(c, deps, c.var.t("tenant.consumption_overview.title"), ConsumptionPage, {
      data,
    });
  });

  app.get("/consumption/:id", async (c) => {
    const id = pathId(c, UNIT_NOT_FOUND);
    const q = queryOf(c, unitQuery);
    const d = await unitDetail(deps, c.var.user, id);
    return renderPage(c, deps, d.unit.name, UnitView, { d, tab: q.tab, offset: off });
  });

  app.get("/pricing", async (c) => {
    const t = c.var.t;
    try {
      const data = await tenantPricing(deps, c.var.user);
      return renderPage(c, deps, t("tenant.pricing.title"), PricingPage, {
        data,
        offsetMinutes: off,
      });
    } catch (e) {
      deps.log.log("error", "tenant pricing failed", { error: String(e) });
      const message = e instanceof Refusal ? t(e.key) : null;
      return renderPage(c, deps, t("tenant.pricing.title"), PricingError, { message }, 500);
    }
  });
  return app;
}
