/**
 * A request with an API key reaches only what its scope allows (`core/api_keys.ts`
 * `scopeAllows`): anything else is 403, before any route runs.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./_deps.ts";
import { scopeAllows } from "../core/api_keys.ts";

/** The scope guard (after the session middleware). */
export function apiKeyScope(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.var.apiKey;
    if (key && !scopeAllows(key.scope, c.req.method, c.req.path)) {
      return c.json({ message: c.var.t("api_keys.errors.out_of_scope"), scope: key.scope }, 403);
    }
    await next();
  };
}
