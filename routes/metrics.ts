/**
 * `GET /metrics` for Prometheus (services/platform/metrics.ts), answered only with
 * `Authorization: Bearer $METRICS_TOKEN`: 404 when the variable is unset (no metrics at all),
 * 401 without the token. And the middleware that counts every request by its route pattern.
 */
import { Hono } from "hono";
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { timingSafeEqual } from "node:crypto";
import type { AppEnv, Deps } from "./_deps.ts";
import type { Metrics } from "../services/platform/metrics.ts";

/** Methods counted by name; any other is `other` (a client cannot add series). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The billing run's routes: their requests are billing runs too. */
const BILLING_RUN = new Set(["/unified-billing/process", "/api/unified-billing/process"]);

/**
 * Counts each request under the pattern of the route that answered it (the last matched
 * handler that is not a middleware: `/api/devices/:id`), `unmatched` when none did.
 */
export function httpMetrics(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - start) / 1000;
      const handler = matchedRoutes(c).findLast((r) => r.method !== "ALL");
      const route = handler?.path ?? "unmatched";
      const method = METHODS.has(c.req.method) ? c.req.method : "other";
      metrics.request(method, route, c.res.status, seconds);
      if (c.req.method === "POST" && BILLING_RUN.has(route)) {
        metrics.billingRun(c.res.status, seconds);
      }
    }
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The metrics route, mounted at the root. */
export function metricsRoutes(deps: Deps, metrics: Metrics): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/metrics", async (c) => {
    const token = deps.config.metricsToken;
    if (!token) return c.text("Not Found", 404);
    const given = /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!sameToken(given, token)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return c.text("Unauthorized", 401);
    }
    const { body, contentType } = await metrics.scrape();
    c.header("Cache-Control", "no-store");
    return c.body(body, 200, { "Content-Type": contentType });
  });
  return app;
}
