/**
 * `GET /api/audit-log?limit&cursor&kind&actor&object` (admin): the audit trail, newest first,
 * `{entries, next_cursor}`. Read only: no route edits or deletes an entry.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { requireApiRole } from "../_session.ts";
import { queryInput } from "../_validate.ts";
import { auditQuerySchema } from "../../core/audit.ts";
import { auditPage } from "../../services/audit.ts";

/** The audit API (mount at `/api/audit-log`). */
export function auditApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.get("/", requireApiRole("admin"), queryInput(auditQuerySchema), async (c) => {
    const { limit, cursor, ...filter } = c.req.valid("query");
    return c.json(await auditPage(deps, filter, limit, cursor));
  });
  return app;
}
