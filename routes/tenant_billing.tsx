/**
 * The tenant's billing page `/user/billing?year=&period=` (spec 001 section 2) and its
 * downloads: `/user/billing/report?station=&unit=&period=&language=` (one bill's report, named
 * `{type}_report_{station}_{unit}_{period}.pdf`) and `/user/billing/pdf?period=` (every bill of
 * the period). Bill notices link to `/user/billing?period=YYYY-MM`, which selects that period;
 * without one the page opens on the newest unpaid bill's period, else the newest bill's.
 * Each paid bill shows its invoice (issue 31); `POST /user/billing/invoice` (`bill_id`,
 * `period`) asks for the named invoice of a bill paid this month that is only in the coming
 * global invoice, and comes back to the period with the outcome.
 */
import { answerByTag } from "./_page_tag.ts";
import { tenantBillingTag } from "../services/page_tags.ts";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { renderPage } from "./_page.tsx";
import { formChecked, pageText, queryInput, queryOf } from "./_validate.ts";
import { formString, readForm } from "./_http.ts";
import { attempt, Refusal, refusalStatus } from "./_refusal.tsx";
import { isPeriod } from "../core/periods.ts";
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
import { requestNamedInvoice } from "../services/invoices/mod.ts";
import { tenantInvoices } from "../services/invoices/views.ts";

/** The form of the request invoice button: the bill, and the period to come back to. */
const invoiceRequestSchema = z.object({
  bill_id: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid")
    .positive("validation.invalid").max(Number.MAX_SAFE_INTEGER, "validation.invalid"),
  period: z.string().refine(isPeriod, "validation.invalid").optional().catch(undefined),
});

/** The outcome shown once after a request (`?invoice=requested`). */
const flashSchema = z.object({ invoice: pageText });

type BillingQuery = { year?: number; period?: string };
type Flash = { notice?: string; error?: string };

/** Routes of the tenant's billing page (guarded by `tenantRoutes`). */
export function tenantBillingRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  const page = async (c: Context<UserEnv>, q: BillingQuery, flash: Flash, status = 200) => {
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
    const invoices = await tenantInvoices(deps, user, bills.map((r) => r.bill));
    return renderPage(c, deps, c.var.t("tenant.billing.title"), BillingPage, {
      overview,
      years,
      periods,
      period,
      bills,
      invoices,
      ...flash,
      language: c.var.lang,
    }, status as 200);
  };

  app.get("/billing", (c) => {
    const q = queryOf(c, billingPageQuerySchema);
    const done = queryOf(c, flashSchema).invoice === "requested";
    return page(c, q, done ? { notice: c.var.t("invoices.requested") } : {});
  });

  app.post("/billing/invoice", async (c) => {
    const form = await readForm(c);
    const input = formChecked(invoiceRequestSchema, {
      bill_id: formString(form, "bill_id"),
      period: formString(form, "period") || undefined,
    });
    if (input instanceof Refusal) throw input;
    const done = await attempt(requestNamedInvoice(deps, c.var.user, input.bill_id));
    if (done instanceof Refusal) {
      const error = c.var.t(done.key);
      return page(c, { period: input.period }, { error }, refusalStatus(done));
    }
    const back = new URLSearchParams({ invoice: "requested" });
    if (input.period) back.set("period", input.period);
    return c.redirect(`/user/billing?${back}#bill-${input.bill_id}`, 303);
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
