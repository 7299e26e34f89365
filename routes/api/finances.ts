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

/** The bad-query answer's schema check, shared by the three calls. */
const parse = (q: Record<string, string>) => validate(financeQuerySchema, q);

/** Routes under /api/finances. */
export function financeApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireApiRole("admin"));

  app.get("/overview", async (c) => {
    const q = parse(c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const o = await adminOverview(deps, {
      currency: q.data.currency,
      start: q.data.start_date,
      end: q.data.end_date,
    });
    const all = o.by_currency.map(financeOverviewJson);
    return c.json({
      ...all[0],
      by_currency: Object.fromEntries(all.map((x) => [x.currency, x])),
    });
  });

  app.get("/bimonthly", async (c) => {
    const q = parse(c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const rows = await bimonthlyData(deps, {
      currency: q.data.currency,
      start: q.data.start_date,
      end: q.data.end_date,
    });
    return c.json({ bimonthly_data: rows.map(figuresJson) });
  });

  app.get("/zones", async (c) => {
    const q = parse(c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const rows = await zonesPerformance(deps, {
      currency: q.data.currency,
      start: q.data.start_date,
      end: q.data.end_date,
    });
    return c.json({ zones_performance: rows.map(figuresJson) });
  });
  return app;
}
