/** Notifications API: list, unread count, resolve (sensor_offline resolves only itself). */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { pathId } from "../_http.ts";
import { queryInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import { notificationsQuerySchema } from "../../core/schemas.ts";
import { activeCount, notificationsOf, resolveByHand } from "../../services/notifications.ts";
import { taggedJson } from "../_page_tag.ts";
import { notificationCountTag } from "../../services/page_tags.ts";

/** Routes under /api/notifications, mounted at that prefix; any signed-in user. */
export function notificationApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireApiRole());

  const listQuery = queryInput(notificationsQuerySchema, { message: "validation.failed" });
  app.get("/", listQuery, async (c) => {
    const { status, limit } = c.req.valid("query");
    const list = await notificationsOf(deps, c.var.user.id, status, limit, c.var.lang);
    return c.json({ notifications: list });
  });

  app.get("/count", (c) => {
    return taggedJson(c, deps, () => notificationCountTag(deps, c.var.user), async () => ({
      total_count: await activeCount(deps, c.var.user.id),
    }));
  });

  app.post("/:id/resolve", async (c) => {
    const id = pathId(c, "errors.notification_not_found");
    const notification = await resolveByHand(deps, c.var.user.id, id, c.var.lang);
    return c.json({ message: c.var.t("notifications.resolved_ok"), notification });
  });
  return app;
}
