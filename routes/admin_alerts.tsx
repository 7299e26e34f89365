/**
 * The admin's alerts (issue 30): `GET /admin/alerts` (open first, `state`, `template`, `page`;
 * bad values fall back; `id`: that alert's card and readings chart first), `POST /admin/alerts/:id/acknowledge` (form `note`), `POST
 * /admin/alerts/:id/resolve`, `POST /admin/alerts/rules` (a rule from a template) and `POST
 * /admin/alerts/rules/:id/delete`. Each form comes back to the page (or to its `back` page: the
 * station's or sensor's) with what it did.
 */
import { type Context, Hono } from "hono";
import type { AppEnv, Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { formString, readForm } from "./_http.ts";
import { flashQuery, formChecked, queryInput, textQuery } from "./_validate.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { requireRole } from "./_session.ts";
import { alertsQuerySchema, ruleInputSchema } from "../core/alert_rules.ts";
import {
  acknowledge,
  alertsFor,
  alertWithMoment,
  createRule,
  removeRule,
  resolveByHand,
  rulesOf,
  valueText,
} from "../services/alerts/mod.ts";
import { AdminAlertsPage } from "../components/alerts/AdminAlertsPage.tsx";
import { clockOf } from "../services/platform/clock.ts";
import { formatter } from "../core/format.ts";

/** A form's back page: a path of the portal only. */
const backOf = (v: string) =>
  /^\/admin\/devices\/station\/\d+(\/sensor\/\d+)?\/data$/.test(v) ? v : "/admin/alerts";

/** Routes under /admin/alerts. */
export function adminAlertRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<UserEnv>();
  app.use("*", requireRole("admin"));

  const page = async (
    c: Context<UserEnv>,
    query: Record<string, string>,
    msg: { notice?: string; error?: string },
    status: 200 | 400 | 404 | 409 = 200,
  ) => {
    const parsed = alertsQuerySchema.safeParse(query);
    const q = parsed.success ? parsed.data : alertsQuerySchema.parse({});
    const { alerts, more } = await alertsFor(deps, c.var.user, {
      ...q,
      state: q.state === "all" ? undefined : q.state,
    });
    const offset = clockOf(deps).offsetMinutes();
    const f = formatter(c.var.lang, offset);
    // `?id=`: one alert's card with its chart above the list (the link of its messages).
    const one = query.id && /^[0-9a-f]{1,40}$/.test(query.id)
      ? await alertWithMoment(deps, query.id)
      : null;
    if (query.id && !one) msg = { ...msg, error: c.var.t("alerts.validation.not_found") };
    return renderPage(c, deps, c.var.t("alerts.title"), AdminAlertsPage, {
      detail: one && { ...one, f },
      alerts,
      more,
      rules: await rulesOf(deps),
      filter: { state: q.state, template: q.template, page: q.page },
      value: (a) => valueText(a, f),
      offsetMinutes: offset,
      ...msg,
    }, status);
  };
  const refused = (c: Context<UserEnv>, r: Refusal) =>
    page(
      c,
      {},
      { error: c.var.t(r.key) },
      r.kind === "not_found" ? 404 : r.kind === "conflict" ? 409 : 400,
    );
  const done = (back: string, what: string) => `${back}?${new URLSearchParams({ done: what })}`;

  app.get("/", queryInput(textQuery), (c) => {
    const q = c.req.valid("query");
    const flash = flashQuery.safeParse(q);
    const notice = flash.success && flash.data.done && /^[a-z_.]+$/.test(flash.data.done)
      ? c.var.t(`alerts.${flash.data.done}`)
      : undefined;
    return page(c, q, { notice });
  });

  app.post("/:id/acknowledge", async (c) => {
    const form = await readForm(c);
    const note = formString(form, "note").slice(0, 500);
    const r = await attempt(acknowledge(deps, c.req.param("id"), c.var.user.id, note));
    if (r instanceof Refusal) return refused(c, r);
    return c.redirect(done(backOf(formString(form, "back")), "done.acknowledged"), 303);
  });

  app.post("/:id/resolve", async (c) => {
    const form = await readForm(c);
    const r = await attempt(resolveByHand(deps, c.req.param("id"), c.var.user.id));
    if (r instanceof Refusal) return refused(c, r);
    return c.redirect(done(backOf(formString(form, "back")), "done.resolved"), 303);
  });

  app.post("/rules", async (c) => {
    const form = await readForm(c);
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(form)) {
      const s = typeof v === "string" ? v.trim() : "";
      if (s !== "") data[k] = k === "escalate_to" ? s.split(",").map((x) => x.trim()) : s;
    }
    const input = formChecked(ruleInputSchema, data);
    if (input instanceof Refusal) return refused(c, input);
    await createRule(deps, input, c.var.user.id);
    return c.redirect(done("/admin/alerts", "rules.created"), 303);
  });

  app.post("/rules/:id/delete", async (c) => {
    const r = await attempt(removeRule(deps, c.req.param("id")));
    if (r instanceof Refusal) return refused(c, r);
    return c.redirect(done("/admin/alerts", "rules.deleted"), 303);
  });
  return app as unknown as Hono<AppEnv>;
}
