/** The notifications page: the bell's panel for browsers without JavaScript, and a full list. */
import { Hono } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { idParam } from "./_http.ts";
import { pageText, queryInput } from "./_validate.ts";
import { requireUser } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import { notificationsOf, resolveByHand } from "../services/notifications.ts";
import { Refusal } from "../services/refusal.ts";
import { bellAlertsOf } from "../services/alerts/mod.ts";
import { NotificationsPage } from "../components/NotificationsPage.tsx";

const FILTERS = ["active", "resolved", "all"] as const;

/** GET /notifications and POST /notifications/{id}/resolve, mounted at /notifications. */
export function notificationPageRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireUser());
  /** The list's filter (any other is the active list) and a resolve's failure. */
  const pageQuery = z.object({
    status: z.enum(FILTERS).catch("active").default("active"),
    error: pageText,
  });
  app.get("/", queryInput(pageQuery), async (c) => {
    const { status, error } = c.req.valid("query");
    const [list, alerts] = await Promise.all([
      notificationsOf(deps, c.var.user.id, status, 50, c.var.lang),
      bellAlertsOf(deps, c.var.user),
    ]);
    return renderPage(c, deps, c.var.t("notifications.title"), NotificationsPage, {
      status,
      items: list,
      now: deps.now(),
      error,
      alerts,
    });
  });
  app.post("/:id/resolve", async (c) => {
    const id = idParam(c.req.param("id"));
    const back = "/notifications";
    let error = "errors.notification_not_found";
    if (id !== null) {
      try {
        await resolveByHand(deps, c.var.user.id, id, c.var.lang);
        return c.redirect(back, 303);
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        error = e.key;
      }
    }
    return c.redirect(`${back}?error=${encodeURIComponent(error)}`, 303);
  });
  return app;
}
