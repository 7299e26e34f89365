/**
 * Alerts API (issue 30): `GET /api/alerts` (`{alerts}`: an admin's all, an owner's their
 * stations', a tenant's consumption alerts of their unit), the admin's acknowledge and resolve,
 * and the rules (`{rules}`, create from a template, delete).
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { jsonInput, queryInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import { ackInputSchema, alertsQuerySchema, ruleInputSchema } from "../../core/alert_rules.ts";
import {
  acknowledge,
  alertsFor,
  createRule,
  removeRule,
  resolveByHand,
  rulesOf,
} from "../../services/alerts/mod.ts";

/** Routes under /api/alerts. */
export function alertApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireApiRole());
  const admin = requireApiRole("admin");

  app.get("/", queryInput(alertsQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const { alerts } = await alertsFor(deps, c.var.user, {
      ...q,
      state: q.state === "all" ? undefined : q.state,
    });
    return c.json({ alerts });
  });

  app.get("/rules", admin, async (c) => c.json({ rules: await rulesOf(deps) }));

  app.post("/rules", admin, jsonInput(ruleInputSchema), async (c) => {
    const rule = await createRule(deps, c.req.valid("json"), c.var.user.id);
    return c.json({ message: c.var.t("alerts.rules.created"), rule }, 201);
  });

  app.delete("/rules/:id", admin, async (c) => {
    await removeRule(deps, c.req.param("id"));
    return c.json({ message: c.var.t("alerts.rules.deleted") });
  });

  app.post("/:id/acknowledge", admin, jsonInput(ackInputSchema, { optional: true }), async (c) => {
    const alert = await acknowledge(
      deps,
      c.req.param("id"),
      c.var.user.id,
      c.req.valid("json").note,
    );
    return c.json({ message: c.var.t("alerts.done.acknowledged"), alert });
  });

  app.post("/:id/resolve", admin, async (c) => {
    const alert = await resolveByHand(deps, c.req.param("id"), c.var.user.id);
    return c.json({ message: c.var.t("alerts.done.resolved"), alert });
  });
  return app;
}
