/** Notifications API: list, unread count, resolve (sensor_offline resolves only itself). */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { pathId } from "../_http.ts";
import { queryInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import { notificationsQuerySchema } from "../../core/schemas.ts";
import { activeCount, notificationsOf, resolveByHand } from "../../services/notifications.ts";
import { bellAlertsOf } from "../../services/alerts/mod.ts";
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

  // `open_alerts` beside the spec's `total_count`: the reader's open alerts in the bell (issue 30).
  app.get("/count", (c) => {
    return taggedJson(c, deps, () => notificationCountTag(deps, c.var.user), async () => {
      const [total, alerts] = await Promise.all([
        activeCount(deps, c.var.user.id),
        bellAlertsOf(deps, c.var.user),
      ]);
      return { total_count: total, open_alerts: alerts?.count ?? 0 };
    });
  });

  app.post("/:id/resolve", async (c) => {
    const id = pathId(c, "errors.notification_not_found");
    const notification = await resolveByHand(deps, c.var.user.id, id, c.var.lang);
    return c.json({ message: c.var.t("notifications.resolved_ok"), notification });
  });
  return app;
}
