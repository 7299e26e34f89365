/**
 * The owner's billing overview API (spec 001 section 7, "Customer and tenant overviews"; issue
 * 13), mounted at `/api/customer-billing-overview`: `GET /billing-type`, `/overview?year=`,
 * `/detail?period=`, and `/cfe-reconciliation` (issue 34: each station's CFE bills against its
 * tenants' bills and station bill, by period). Customers only, each answering for the caller's own stations and their
 * finalized bills; money in currency units.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { queryInput } from "../_validate.ts";
import { requireApiRole } from "../_session.ts";
import { periodQuerySchema, yearQuerySchema } from "../../core/tenant_queries.ts";
import { ownerBillingType, ownerOverview, ownerPeriodBills } from "../../services/finances/mod.ts";
import { customerBillJson, unitBillJson } from "./_bill_json.ts";
import { figuresJson, ownerTotalsJson } from "./_finance_json.ts";
import { clockOf } from "../../services/platform/clock.ts";
import { reconciliations } from "../../services/owner/cfe_bills.ts";
import { centsToUnits } from "../../core/money.ts";

/** Routes under /api/customer-billing-overview. */
export function customerBillingApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireApiRole("customer"));

  app.get("/billing-type", async (c) => c.json(await ownerBillingType(deps, c.var.user)));

  const bad = { message: "validation.failed" };
  app.get("/overview", queryInput(yearQuerySchema, bad), async (c) => {
    const year = c.req.valid("query").year ?? clockOf(deps).today().year;
    const o = await ownerOverview(deps, c.var.user, year);
    const { currency_totals, ...rest } = o.yearly_overview;
    return c.json({
      ...o,
      yearly_overview: { currency_totals: ownerTotalsJson(currency_totals), ...figuresJson(rest) },
      period_data: o.period_data.map(figuresJson),
    });
  });

  app.get("/detail", queryInput(periodQuerySchema, bad), async (c) => {
    const { period } = c.req.valid("query");
    const d = await ownerPeriodBills(deps, c.var.user, period);
    return c.json({
      period,
      unit_bills: d.unit_bills.map((r) => ({
        ...unitBillJson(r.bill),
        station_name: r.station_name,
        unit_name: r.unit_name,
        tenant_name: r.tenant_name,
      })),
      customer_bills: d.customer_bills.map((r) => ({
        ...customerBillJson(r.bill),
        station_name: r.station_name,
      })),
    });
  });
  app.get("/cfe-reconciliation", async (c) => {
    const stations = await reconciliations(deps, c.var.user);
    const money = centsToUnits;
    return c.json({
      stations: stations.map((s) => ({
        station_id: s.station_id,
        station_name: s.station_name,
        has_master_meter: s.has_master,
        periods: s.rows.map((r) => ({
          period: r.period,
          cfe_kwh: r.cfe_kwh,
          cfe_kw: r.cfe_kw,
          cfe_amount: money(r.cfe_amount),
          kwh_source: r.kwh_source,
          has_pdf: r.has_pdf,
          billed_kwh: r.billed_kwh,
          unbilled_kwh: r.unbilled_kwh,
          unbilled_pct: r.unbilled_pct,
          tenants_amount: money(r.tenants_amount),
          station_amount: money(r.station_amount),
          recovered_pct: r.recovered_pct,
          net_recovered_pct: r.net_recovered_pct,
          balance: money(r.balance),
          currency: "MXN",
        })),
      })),
    });
  });
  return app;
}
