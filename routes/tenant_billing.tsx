/**
 * The tenant's billing page `/user/billing?year=&period=` (spec 001 section 2) and its
 * downloads: `/user/billing/report?station=&unit=&period=&language=` (one bill's report, named
 * `{type}_report_{station}_{unit}_{period}.pdf`) and `/user/billing/pdf?period=` (every bill of
 * the period). Bill notices link to `/user/billing?period=YYYY-MM`, which selects that period;
 * without one the page opens on the newest unpaid bill's period, else the newest bill's.
 */
import { answerByTag } from "./_page_tag.ts";
import { tenantBillingTag } from "../services/page_tags.ts";
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { queryInput, queryOf } from "./_validate.ts";
import { billingPageQuerySchema } from "../core/tenant_queries.ts";
import { periodReportQuerySchema, tenantReportQuerySchema } from "../core/tenant_report.ts";
import { defaultPeriod, parsePeriod, periodOptions } from "../core/periods.ts";
import {
  periodReport,
  tenantLandingPeriod,
  tenantOverview,
  tenantPeriodBills,
  tenantReport,
} from "../services/tenant/mod.ts";
import { BillingPage } from "../components/tenant/BillingPage.tsx";
import { pdfResponse } from "./api/reports.ts";
import { clockOf } from "../services/platform/clock.ts";

/** Routes of the tenant's billing page (guarded by `tenantRoutes`). */
export function tenantBillingRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  app.get("/billing", async (c) => {
    const q = queryOf(c, billingPageQuerySchema);
    const user = c.var.user;
    const known = await answerByTag(c, deps, () => tenantBillingTag(deps, user));
    if (known) return known;
    const today = clockOf(deps).today();
    const years = [today.year, today.year - 1, today.year - 2];
    // Without a period: the newest unpaid bill's, else the newest bill's (of the asked year).
    const asked = q.period ?? await tenantLandingPeriod(deps, user, q.year) ?? undefined;
    const year = asked ? parsePeriod(asked).year : q.year ?? today.year;
    const overview = await tenantOverview(deps, user, year);
    const kind = asked ? parsePeriod(asked).kind : overview.billing_type;
    const period = asked ?? defaultPeriod(kind, year, today);
    const periods = periodOptions(kind, year, today);
    if (!periods.includes(period)) periods.unshift(period);
    if (!years.includes(year)) years.push(year);
    const bills = await tenantPeriodBills(deps, user, period);
    return renderPage(c, deps, c.var.t("tenant.billing.title"), BillingPage, {
      overview,
      years,
      periods,
      period,
      bills,
      language: c.var.lang,
    });
  });

  // A bad query is refused naming its first field, as the download links always were.
  const first = { fields: "first", fieldDepth: 1 } as const;
  app.get("/billing/report", queryInput(tenantReportQuerySchema, first), async (c) => {
    const q = c.req.valid("query");
    const req = { ...q, language: q.language ?? c.var.lang };
    return pdfResponse(await tenantReport(deps, c.var.user, req));
  });

  app.get("/billing/pdf", queryInput(periodReportQuerySchema, first), async (c) => {
    const { period, language } = c.req.valid("query");
    return pdfResponse(await periodReport(deps, c.var.user, period, language ?? c.var.lang));
  });
  return app;
}
