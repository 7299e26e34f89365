/**
 * `GET /health`, for load balancers and monitors, without a session: 200
 * `{status: "ok", checks: {kv: {ok, latency_ms}, telemetry: {...}}}`, or 503 with
 * `status: "failing"` and the failing checks `ok: false` with a `reason` (services/platform/health.ts).
 */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { checkHealth, publicHealth } from "../services/platform/health.ts";

/** The health route, mounted at the root. */
export function healthRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/health", async (c) => {
    const report = await checkHealth(deps);
    c.header("Cache-Control", "no-store");
    return c.json(publicHealth(report), report.status === "ok" ? 200 : 503);
  });
  return app;
}
