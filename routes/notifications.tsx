/** The notifications page: the bell's panel for browsers without JavaScript, and a full list. */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { idParam } from "./_http.ts";
import { requirePageUser } from "./_session.ts";
import { appPage } from "./_page.tsx";
import { listNotifications } from "../db/notifications.ts";
import { resolveByHand } from "../services/notifications.ts";
import { NotificationsPage } from "../components/NotificationsPage.tsx";

const FILTERS = ["active", "resolved", "all"] as const;

/** GET /notifications and POST /notifications/{id}/resolve. */
export function notificationPageRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/notifications", requirePageUser());
  app.use("/notifications/*", requirePageUser());
  app.get("/notifications", async (c) => {
    const q = c.req.query("status");
    const status = FILTERS.find((f) => f === q) ?? "active";
    const list = await listNotifications(deps.kv, c.var.user!.id, status, 50);
    return appPage(
      c,
      deps,
      c.var.t("notifications.title"),
      <NotificationsPage
        t={c.var.t}
        status={status}
        items={list}
        now={deps.now()}
        error={c.req.query("error")}
      />,
    );
  });
  app.post("/notifications/:id/resolve", async (c) => {
    const id = idParam(c.req.param("id"));
    const res = id === null ? null : await resolveByHand(deps, c.var.user!.id, id);
    const back = "/notifications";
    if (!res || !res.ok) {
      return c.redirect(
        `${back}?error=${
          res?.ok === false ? encodeURIComponent(res.key) : "errors.notification_not_found"
        }`,
        303,
      );
    }
    return c.redirect(back, 303);
  });
  return app;
}
