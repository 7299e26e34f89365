/** Admin pages for accounts and access codes (users management, account form, codes). */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";

/** Routes under /admin/users and /admin/access-codes. */
export function adminUserRoutes(_deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  return app;
}
