/**
 * The admin's finance API (spec 001 sections 3 and 7; issue 14), mounted at `/api/finances`:
 * `GET /overview?currency=&start_date=&end_date=`, `GET /bimonthly?currency=` (→
 * `bimonthly_data`), `GET /zones?currency=` (→ `zones_performance`). Admins only. A currency
 * omitted means all: the overview then answers the currency with the most bills at the top and
 * every currency in `by_currency`, and the rows carry their currency; amounts in different
 * currencies are never added. Money in currency units.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { badRequest, validate } from "../_http.ts";
import { requireApiRole } from "../_session.ts";
import { financeQuerySchema } from "../../core/finance_queries.ts";
import { adminOverview, bimonthlyData, zonesPerformance } from "../../services/finances/mod.ts";
import { figuresJson, financeOverviewJson } from "./_finance_json.ts";

/** The filter of a valid query, or the field errors of a bad one. */
function filterOf(query: Record<string, string>) {
  const q = validate(financeQuerySchema, query);
  if (!q.ok) return q;
  const { currency, start_date: start, end_date: end } = q.data;
  return { ok: true as const, data: { currency, start, end } };
}

/** Routes under /api/finances. */
export function financeApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireApiRole("admin"));

  app.get("/overview", async (c) => {
    const q = filterOf(c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const o = await adminOverview(deps, q.data);
    const all = o.by_currency.map(financeOverviewJson);
    return c.json({
      ...all[0],
      by_currency: Object.fromEntries(all.map((x) => [x.currency, x])),
    });
  });

  app.get("/bimonthly", async (c) => {
    const q = filterOf(c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const rows = await bimonthlyData(deps, q.data);
    return c.json({ bimonthly_data: rows.map(figuresJson) });
  });

  app.get("/zones", async (c) => {
    const q = filterOf(c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const rows = await zonesPerformance(deps, q.data);
    return c.json({ zones_performance: rows.map(figuresJson) });
  });
  return app;
}
