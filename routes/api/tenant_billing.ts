/**
 * Tenant billing overview API (spec 001 section 7, "Customer and tenant overviews"):
 * `GET /api/tenant-billing-overview/billing-type`, `/overview?year=`, `/detail?period=`. Tenants
 * only, each answering for the caller's own units and finalized bills; money in currency units.
 */
import { Hono } from "hono";
import type { z } from "zod";
import type { Deps, UserEnv } from "../_deps.ts";
import { queryInput } from "../_validate.ts";
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

/** A query validated by the one hook, refused as `{message, errors}` naming its fields. */
const query = <S extends z.ZodType>(schema: S) =>
  queryInput(schema, { message: "validation.failed" });

/** Routes under /api/tenant-billing-overview (mount at that prefix). */
export function tenantBillingApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireApiRole("user"));

  app.get(`/billing-type`, async (c) => c.json(await tenantBillingType(deps, c.var.user)));

  app.get(`/overview`, query(yearQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const year = q.year ?? clockOf(deps).today().year;
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

  app.get(`/detail`, query(periodQuerySchema), async (c) => {
    const q = c.req.valid("query");
    try {
      const rows = await tenantPeriodBills(deps, c.var.user, q.period);
      return c.json({ period: q.period, unit_bills: rows.map(tenantBillJson) });
    } catch (e) {
      deps.log.log("warn", "tenant bill detail failed", { error: String(e) });
      return c.json({ period: q.period, unit_bills: [] });
    }
  });
  return app;
}
