/**
 * Measurements and analytics API (spec 000 section 7): `/api/measurements/overview`,
 * `/api/measurements?type=power&mode=&date=`, `/{id}/realtime`, `/{id}/history`,
 * `/{id}/summary`, `/system-stats`, `/system-performance`, `/ingest-health` (admin only),
 * `/api/analytics/uptime/{id}`,
 * `/api/analytics/delta`. Every answer covers only devices the caller may see.
 */
import { Hono } from "hono";
import type { z } from "zod";
import type { Context } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { queryInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import {
  chartQuerySchema,
  deltaQuerySchema,
  historyQuerySchema,
  performanceQuerySchema,
  summaryQuerySchema,
  uptimeQuerySchema,
} from "../../core/measurement_queries.ts";
import { getDeviceView } from "../../services/devices/mod.ts";
import {
  chart,
  delta,
  history,
  ingestHealth,
  monthlyUptime,
  overview,
  realtime,
  summary,
  systemPerformance,
  systemStats,
} from "../../services/measurements.ts";
import type { DeviceView } from "../../core/devices.ts";
import { clockOf } from "../../services/platform/clock.ts";

/** The sensor of `:id` the caller may see, or a 404 answer. */
async function sensorParam(
  c: Context<UserEnv>,
  deps: Deps,
  raw: string | undefined,
  kinds: DeviceView["type"][] = ["sensor"],
): Promise<DeviceView | Response> {
  const id = idParam(raw);
  const device = id === null ? null : await getDeviceView(deps, c.var.user, id);
  if (!device || !kinds.includes(device.type)) {
    return c.json({ message: c.var.t("devices.api.sensor_not_found") }, 404);
  }
  return device;
}

/** Today's local date (`YYYY-MM-DD`). */
const todayOf = (deps: Deps) => clockOf(deps).todayText();

/** A query validated by the one hook, refused as `{message, errors}` naming its fields. */
const query = <S extends z.ZodType>(schema: S) =>
  queryInput(schema, { message: "validation.failed" });

/** Routes under /api/measurements, mounted at that prefix; any signed-in user. */
export function measurementApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireApiRole());
  const today = () => todayOf(deps);

  app.get("/overview", async (c) => c.json(await overview(deps, c.var.user)));

  app.get("/", query(chartQuerySchema), async (c) => {
    const q = c.req.valid("query");
    return c.json(await chart(deps, c.var.user, q.mode, q.date ?? today()));
  });

  app.get(
    "/system-stats",
    async (c) => c.json(await systemStats(deps, c.var.user)),
  );

  // Admin only: what each ingest process published (db/ingest_health.ts).
  app.get(
    "/ingest-health",
    requireApiRole("admin"),
    async (c) => c.json(await ingestHealth(deps)),
  );

  app.get("/system-performance", query(performanceQuerySchema), async (c) => {
    const q = c.req.valid("query");
    return c.json(await systemPerformance(deps, c.var.user, q.timeframe));
  });

  app.get("/:id/realtime", async (c) => {
    const s = await sensorParam(c, deps, c.req.param("id"));
    return s instanceof Response ? s : c.json(await realtime(deps, s));
  });

  app.get("/:id/history", query(historyQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const s = await sensorParam(c, deps, c.req.param("id"));
    if (s instanceof Response) return s;
    return c.json(await history(deps, c.var.user, s, q.aggregation, q.measurement));
  });

  app.get("/:id/summary", query(summaryQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const s = await sensorParam(c, deps, c.req.param("id"));
    if (s instanceof Response) return s;
    return c.json(await summary(deps, c.var.user, s, q.month ?? today().slice(0, 7)));
  });

  return app;
}

/** Routes under /api/analytics, mounted at that prefix; any signed-in user. */
export function analyticsApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireApiRole());
  const today = () => todayOf(deps);

  app.get("/uptime/:id", query(uptimeQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const d = await sensorParam(c, deps, c.req.param("id"), ["sensor", "station"]);
    if (d instanceof Response) return d;
    return c.json(await monthlyUptime(deps, d, q.month ?? today().slice(0, 7)));
  });

  app.get("/delta", query(deltaQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const s = await sensorParam(c, deps, String(q.sensorId));
    if (s instanceof Response) return s;
    return c.json(await delta(deps, c.var.user, s, q.field, q.startDate, q.endDate));
  });
  return app;
}
