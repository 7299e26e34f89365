/**
 * The system uptime page `/admin/stats?timeframe=24h|7d|30d` (spec 000 sections 2 and 9):
 * figures from `services/measurements.ts`; the hourly lines are fetched by the island;
 * the ingest health section reads what each ingest published (`db/ingest_health.ts`).
 */
import { Hono } from "hono";
import { z } from "zod";
import { queryInput } from "./_validate.ts";
import type { Deps, UserEnv } from "./_deps.ts";
import { appPage } from "./_page.tsx";
import {
  type IngestHealth as Health,
  ingestHealth,
  systemPerformance,
  systemStats,
} from "../services/measurements.ts";
import {
  type PerformanceRow,
  STATS_TIMEFRAMES,
  type StatsTimeframe,
  type SystemFigures,
  SystemStats,
} from "../components/dashboard/SystemStats.tsx";
import { IngestHealth } from "../components/dashboard/IngestHealth.tsx";

/** The system uptime page `/admin/stats`, mounted at /admin (whose guard is `routes/admin.tsx`'s). */
export function adminStatsRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  // Any other timeframe is the last day's.
  const pageQuery = z.object({ timeframe: z.enum(STATS_TIMEFRAMES).catch("24h") });
  app.get("/stats", queryInput(pageQuery), async (c) => {
    const t = c.var.t;
    const user = c.var.user;
    const timeframe: StatsTimeframe = c.req.valid("query").timeframe;
    let figures: SystemFigures | null = null;
    let rows: PerformanceRow[] = [];
    let last8: PerformanceRow[] = [];
    try {
      figures = await systemStats(deps, user);
      const day = (await systemPerformance(deps, user, "24h")).data;
      rows = timeframe === "24h" ? day : (await systemPerformance(deps, user, timeframe)).data;
      last8 = day.slice(-8).reverse();
    } catch (e) {
      deps.log.log("error", "system stats failed", { error: String(e) });
      figures = null;
    }
    let health: Health | null = null;
    try {
      health = await ingestHealth(deps);
    } catch (e) {
      deps.log.log("error", "ingest health failed", { error: String(e) });
    }
    return appPage(
      c,
      deps,
      t("uptime.system_uptime.title"),
      <>
        <SystemStats
          t={t}
          lang={c.var.lang}
          timeframe={timeframe}
          figures={figures}
          rows={rows}
          last8={last8}
        />
        <IngestHealth t={t} lang={c.var.lang} health={health} />
      </>,
    );
  });
  return app;
}
