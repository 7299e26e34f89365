/** Admin pages: the dashboard, the system uptime page, and the sections later work fills in. */
import { answerByTag } from "./_page_tag.ts";
import { adminDashboardTag } from "../services/page_tags.ts";
import { adminApiKeyRoutes } from "./admin_api_keys.tsx";
import { requireAdminFactor } from "./auth_second_factor.tsx";
import { adminAuditRoutes } from "./admin_audit.tsx";
import { Hono } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import {
  fleetStats,
  pageStationViews,
  STATION_SORTS,
  stationPins,
  stationsOnline,
  type StationSort,
} from "../services/devices/mod.ts";
import { listHref, listQuerySchema, searchText } from "../core/paging.ts";
import { queryInput, queryOf } from "./_validate.ts";
import type { Paging } from "../components/kit/mod.ts";
import { chart, overview } from "../services/measurements.ts";
import { recentHealth } from "../services/platform/health.ts";
import type { StationRow } from "../components/devices/StationList.tsx";
import type { MapStation } from "../components/dashboard/StationMap.tsx";
import { AdminDashboard, DASHBOARD_TABS } from "../components/dashboard/AdminDashboard.tsx";
import { ENERGY_MODES } from "../core/energy_modes.ts";
import { adminUserRoutes } from "./admin_users.tsx";
import { adminAccessCodeRoutes } from "./admin_access_codes.tsx";
import { adminDeviceRoutes } from "./admin_devices.tsx";
import { adminStationFormRoutes } from "./admin_station_form.tsx";
import { adminStationDataRoutes } from "./admin_station_data.tsx";
import { adminCfeBillRoutes } from "./admin_cfe_bill.tsx";
import { adminSensorFormRoutes } from "./admin_sensor_form.tsx";
import { adminSensorDataRoutes } from "./admin_sensor_data.tsx";
import { adminSensorTenancyRoutes } from "./admin_sensor_tenancy.tsx";
import { stationRows } from "./_devices.tsx";
import { adminReportRoutes } from "./admin_reports.tsx";
import { adminStatsRoutes } from "./admin_stats.tsx";
import { adminBillingRoutes } from "./admin_billing.tsx";
import { settingsRoutes } from "./settings.tsx";
import { adminZoneRoutes } from "./admin_zones.tsx";
import { clockOf } from "../services/platform/clock.ts";

/** Up to this many sensors, the dashboard renders the energy overview with the page. */
const OVERVIEW_INLINE_SENSORS = 200;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dashboard's query: a tab, a search, the chart's mode and day. Anything else falls back
 * to the list, no search, the day chart and today (the date left out here).
 */
const dashboardQuerySchema = z.object({
  tab: z.enum(DASHBOARD_TABS).catch("list"),
  q: z.string().catch("").transform((q) => q.trim().slice(0, 200)),
  mode: z.enum(ENERGY_MODES).catch("day"),
  date: z.string().regex(DATE).refine((d) => !isNaN(Date.parse(d))).optional().catch(undefined),
});

/** Routes under /admin, mounted at that prefix behind the admin guard. */
export function adminRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireRole("admin"));
  app.use("*", requireAdminFactor(deps));
  app.get("/", queryInput(dashboardQuerySchema), async (c) => {
    const t = c.var.t;
    const user = c.var.user;
    const query = c.req.valid("query");
    const { tab, q, mode } = query;
    const date = query.date ?? clockOf(deps).todayText();
    const list = { ...queryOf(c, listQuerySchema(STATION_SORTS)), q: searchText(q) };
    const known = await answerByTag(c, deps, () => adminDashboardTag(deps, user));
    if (known) return known;
    const health = await recentHealth(deps);
    const faults = Object.entries(health.checks).filter(([, r]) => !r.ok).map(([check, r]) => ({
      check,
      message: r.message ?? r.reason ?? "",
    }));
    const stats = await fleetStats(deps);
    // The energy overview reads each sensor's telemetry: on a large fleet the page leaves it
    // to the live cards, which load it right after the page.
    const ov = stats.sensorCount > OVERVIEW_INLINE_SENSORS ? null : await overview(deps, user)
      .catch((e) => {
        deps.log.log("error", "dashboard overview failed", { error: String(e) });
        return null;
      });
    let stations: StationRow[] | null = null;
    let all: MapStation[] = [];
    let paging: Paging<StationSort> | undefined;
    let online = { online: 0, total: 0 };
    try {
      online = await stationsOnline(deps);
      if (tab === "map") all = await stationPins(deps);
      if (tab === "list" && online.total > 0) {
        const page = await pageStationViews(deps, user, list);
        stations = stationRows(t, page.rows, "");
        paging = {
          query: { ...list, page: page.page },
          page,
          href: (to) => listHref("/admin", to, { sort: "id" }, { tab: "list" }),
        };
      }
    } catch (e) {
      deps.log.log("error", "dashboard stations failed", { error: String(e) });
    }
    const series = tab === "chart" ? await chart(deps, user, mode, date).catch(() => null) : null;
    return renderPage(c, deps, t("dashboard.admin_dashboard.title"), AdminDashboard, {
      tab,
      q,
      stats,
      overview: ov,
      stations,
      paging,
      all,
      online,
      mode,
      date,
      chart: series,
      faults,
    });
  });
  app.route("/", adminStatsRoutes(deps));
  app.route("/users", adminUserRoutes(deps));
  app.route("/access-codes", adminAccessCodeRoutes(deps));
  app.route("/audit", adminAuditRoutes(deps));
  app.route("/api-keys", adminApiKeyRoutes(deps));
  app.route("/devices", adminDeviceRoutes(deps));
  app.route("/devices/station", adminStationFormRoutes(deps));
  app.route("/devices/station", adminStationDataRoutes(deps));
  app.route("/devices/station", adminCfeBillRoutes(deps));
  app.route("/devices/station/:id/sensor", adminSensorFormRoutes(deps));
  app.route("/devices/station/:id/sensor", adminSensorDataRoutes(deps));
  app.route("/devices/station/:id/sensor", adminSensorTenancyRoutes(deps));
  app.route("/report", adminReportRoutes(deps));
  app.route("/", adminZoneRoutes(deps));
  app.route("/", adminBillingRoutes(deps));
  app.route("/", settingsRoutes(deps, "/admin/settings", "/settings"));
  return app;
}
