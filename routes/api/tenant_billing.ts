/**
 * Tenant billing overview API (spec 001 section 7, "Customer and tenant overviews"):
 * `GET /api/tenant-billing-overview/billing-type`, `/overview?year=`, `/detail?period=`. Tenants
 * only, each answering for the caller's own units and finalized bills; money in currency units.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { badRequest, validate } from "../_http.ts";
import { requireApiRole } from "../_session.ts";
import { centsToUnits } from "../../core/money.ts";
import { periodQuerySchema, yearQuerySchema } from "../../core/tenant_queries.ts";
import {
  tenantBillingType,
  type TenantBillRow,
  tenantOverview,
  tenantPeriodBills,
} from "../../services/tenant/mod.ts";
import { unitBillJson } from "./_bill_json.ts";
import { clockOf } from "../../services/platform/clock.ts";

/** A tenant's bill row for the API. */
function tenantBillJson(r: TenantBillRow) {
  return {
    ...unitBillJson(r.bill),
    period: r.period,
    station_name: r.station_name,
    location: r.location,
    unit_name: r.unit_name,
  };
}

/** Routes under /api/tenant-billing-overview (mount at that prefix). */
export function tenantBillingApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireApiRole("user"));

  app.get(`/billing-type`, async (c) => c.json(await tenantBillingType(deps, c.var.user)));

  app.get(`/overview`, async (c) => {
    const q = validate(yearQuerySchema, c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    const year = q.data.year ?? clockOf(deps).today().year;
    const o = await tenantOverview(deps, c.var.user, year);
    return c.json({
      ...o,
      yearly_overview: {
        ...o.yearly_overview,
        total_cost: centsToUnits(o.yearly_overview.total_cost),
      },
      period_data: o.period_data.map((p) => ({ ...p, total_cost: centsToUnits(p.total_cost) })),
    });
  });

  app.get(`/detail`, async (c) => {
    const q = validate(periodQuerySchema, c.req.query());
    if (!q.ok) return badRequest(c, q.errors);
    try {
      const rows = await tenantPeriodBills(deps, c.var.user, q.data.period);
      return c.json({ period: q.data.period, unit_bills: rows.map(tenantBillJson) });
    } catch (e) {
      deps.log.log("warn", "tenant bill detail failed", { error: String(e) });
      return c.json({ period: q.data.period, unit_bills: [] });
    }
  });
  return app;
}
