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
import { queryInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import { type FinanceQuery, financeQuerySchema } from "../../core/finance_queries.ts";
import { adminOverview, bimonthlyData, zonesPerformance } from "../../services/finances/mod.ts";
import { figuresJson, financeOverviewJson } from "./_finance_json.ts";

/** The filter of a validated query. */
const filterOf = ({ currency, start_date: start, end_date: end }: FinanceQuery) => ({
  currency,
  start,
  end,
});

/** A finance query, refused as `{message, errors}` naming its fields. */
const financeQuery = queryInput(financeQuerySchema, { message: "validation.failed" });

/** Routes under /api/finances. */
export function financeApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireApiRole("admin"));

  app.get("/overview", financeQuery, async (c) => {
    const o = await adminOverview(deps, filterOf(c.req.valid("query")));
    const all = o.by_currency.map(financeOverviewJson);
    return c.json({
      ...all[0],
      by_currency: Object.fromEntries(all.map((x) => [x.currency, x])),
    });
  });

  app.get("/bimonthly", financeQuery, async (c) => {
    const rows = await bimonthlyData(deps, filterOf(c.req.valid("query")));
    return c.json({ bimonthly_data: rows.map(figuresJson) });
  });

  app.get("/zones", financeQuery, async (c) => {
    const rows = await zonesPerformance(deps, filterOf(c.req.valid("query")));
    return c.json({ zones_performance: rows.map(figuresJson) });
  });
  return app;
}
