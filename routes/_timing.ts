/**
 * The `Server-Timing` header (`config.serverTiming`: development, or `SERVER_TIMING=true`):
 * each request's KV reads and writes, telemetry queries and rendering, as summed by
 * `services/platform/timing.ts`, and its total. Off: the middleware does nothing.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { serverTimingHeader, withTiming } from "../services/platform/timing.ts";

/** Adds `Server-Timing` to every answer when the configuration asks for it. */
export function serverTiming(deps: Deps): MiddlewareHandler<AppEnv> {
  if (!deps.config.serverTiming) return (_c, next) => next();
  return async (c, next) => {
    const t0 = performance.now();
    const { timing } = await withTiming(() => next());
    try {
      c.res.headers.set("server-timing", serverTimingHeader(timing, performance.now() - t0));
    } catch {
      // an answer with immutable headers (a fetched file) goes without
    }
  };
}
