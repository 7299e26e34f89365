/**
 * The owner's billing overview, mounted at `/customer/billing` (spec 001 section 2; issue 13):
 * `GET /customer/billing?year=` (the current year and the two before; the periods that have
 * bills), each bill's PDF report, `GET /customer/billing/report?station=&unit=&period=&language=`
 * (a unit report, or the station's without `unit`; a failure comes back to the page with "Error
 * downloading report"), and the CSV of a period's tables,
 * `GET /customer/billing/export/{units,customer}.csv?period=`. Customers only; only their own
 * stations' finalized bills. When the figures cannot be read the page shows zero totals in MXN
 * (spec 001 section 8).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { pageText, queryOf } from "./_validate.ts";
import { renderPage } from "./_page.tsx";
import { type CsvCell, csvDownload, csvNumber } from "./_csv.ts";
import { invalid, Refusal } from "../services/refusal.ts";
import { pdfResponse } from "./api/reports.ts";
import { generateReport } from "../services/reports/mod.ts";
import { INVOICE_LANGUAGES } from "../services/owner/mod.ts";
import { periodQuerySchema, yearQuerySchema } from "../core/tenant_queries.ts";
import { isPeriod, parsePeriod, periodOptions } from "../core/periods.ts";
import { reconciliations } from "../services/owner/cfe_bills.ts";
import { cfeBillPdfResponse, type CfeBillPosted, postCfeBill } from "./_cfe_bill.ts";
import { centsToUnits } from "../core/money.ts";
import {
  type OwnerOverview,
  ownerOverview,
  ownerPeriodBills,
  ownerYearBills,
} from "../services/finances/mod.ts";
import { OwnerBillingPage } from "../components/finances/OwnerBillingPage.tsx";
import { clockOf } from "../services/platform/clock.ts";
import { invoiceViews } from "../services/invoices/views.ts";

/** The flags the page is sent back with: a failed report download, a CFE bill saved. */
const reportErrorQuery = z.object({ report_error: pageText, cfe_saved: pageText });

/** The CFE bill PDF's query. */
const cfePdfQuery = z.object({
  station: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid").positive(
    "validation.invalid",
  ),
  period: z.string({ error: "validation.required" }).refine(isPeriod, "validation.invalid"),
});

/** The overview with zero totals in MXN (what the page shows when the figures fail). */
function zeroOverview(year: number): OwnerOverview {
  return {
    billing_type: "monthly",
    currency: "MXN",
    year,
    yearly_overview: {
      currency_totals: {},
      total_invoices: 0,
      total_customer_bills: 0,
      paid_bills: 0,
      primary_currency: "MXN",
      total_revenue: 0,
      total_profit: 0,
      payment_revenue: 0,
      payment_profit: 0,
      profit_margin: 0,
      payment_profit_margin: 0,
      currency: "MXN",
    },
    period_data: [],
  };
}

const units = (cents: number) => centsToUnits(cents).toFixed(2);

/** A bill's PDF report: the unit's (with `unit`) or the station's, of a period, en or es. */
const reportQuerySchema = z.object({
  station: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid").positive(
    "validation.invalid",
  ),
  unit: z.string().regex(/^unit_\d{1,3}$/, "validation.invalid").optional(),
  period: z.string({ error: "validation.required" }).refine(isPeriod, "validation.invalid"),
  language: z.enum(INVOICE_LANGUAGES, { error: "reports.errors.invalid_language" }),
});

/** Routes under /customer/billing. */
export function customerBillingRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("customer"));

  /** The page of `year`; with the CFE bill form's values and errors after a refused post. */
  const page = async (
    c: Context<UserEnv>,
    year: number,
    form: Extract<CfeBillPosted, { ok: false }> | null = null,
  ) => {
    const today = clockOf(deps).today();
    const years = [today.year, today.year - 1, today.year - 2];
    const user = c.var.user;
    const [overview, bills] = await Promise.all([
      ownerOverview(deps, user, year),
      ownerYearBills(deps, user, year),
    ]).catch((e) => {
      deps.log.log("error", "owner billing overview failed", { error: String(e) });
      return [zeroOverview(year), new Map()] as const;
    });
    // Only the periods that have bills, newest first (not a row of empty months).
    const periods = [...bills.keys()].sort((a, b) => b.localeCompare(a));
    // The station bills' invoices to the owner (issue 31).
    const stationBillIds = [...bills.values()].flatMap((b) =>
      b.customer_bills.map((r: { bill: { id: number } }) => r.bill.id)
    );
    const invoices = await invoiceViews(deps, user, stationBillIds, true);
    const cfe = await reconciliations(deps, user);
    const flags = form
      ? { report_error: undefined, cfe_saved: undefined }
      : queryOf(c, reportErrorQuery);
    const cfePeriods = [
      ...periodOptions(overview.billing_type, today.year, today),
      ...periodOptions(overview.billing_type, today.year - 1),
    ];
    return renderPage(c, deps, c.var.t("customer.billing_overview.title"), OwnerBillingPage, {
      overview,
      years,
      reportError: flags.report_error === "1",
      cfeSaved: flags.cfe_saved === "1",
      invoices,
      periods: periods.map((period) => ({
        period,
        bills: bills.get(period) ?? { unit_bills: [], customer_bills: [] },
      })),
      cfe: cfe.length === 0 ? null : {
        stations: cfe,
        form: {
          action: "/customer/billing/cfe-bill",
          stations: cfe.map((s) => ({
            id: s.station_id,
            name: s.station_name,
            has_master: s.has_master,
          })),
          periods: cfePeriods,
          values: form?.values ??
            {
              station: String(cfe[0].station_id),
              period: cfePeriods[1] ?? cfePeriods[0],
              kwh: "",
              kw: "",
              amount: "",
            },
          errors: form?.errors ?? {},
          error: form?.error,
        },
      },
    }, form?.status ?? 200);
  };

  app.get("/", (c) => {
    const q = queryOf(c, yearQuerySchema);
    const today = clockOf(deps).today();
    const year = q.year ?? today.year;
    if (year < today.year - 2 || year > today.year) throw invalid({ year: "validation.invalid" });
    return page(c, year);
  });

  // The building's CFE bill: entered here (with its PDF), its PDF downloaded.
  app.post("/cfe-bill", async (c) => {
    const res = await postCfeBill(c, deps, null);
    if (!res.ok) return page(c, clockOf(deps).today().year, res);
    const year = parsePeriod(res.period).year;
    return c.redirect(`/customer/billing?year=${year}&cfe_saved=1#cfe-${res.station}`, 303);
  });
  app.get("/cfe-bill.pdf", (c) => {
    const q = queryOf(c, cfePdfQuery);
    return cfeBillPdfResponse(c, deps, q.station, q.period);
  });

  const exportTable = (what: "units" | "customer") => async (c: Context<UserEnv>) => {
    const q = queryOf(c, periodQuerySchema);
    const t = c.var.t;
    const C = (k: string) => t(`customer.billing_overview.period_section.columns.${k}`);
    const d = await ownerPeriodBills(deps, c.var.user, q.period);
    const rows: CsvCell[][] = what === "units"
      ? [
        [C("station"), C("unit"), C("tenant"), C("energy"), C("total_cost"), C("payment")],
        ...d.unit_bills.map((r) => [
          r.station_name,
          r.unit_name,
          r.tenant_name ?? "",
          csvNumber(r.bill.energy_consumption, 2),
          `${units(r.bill.total_cost)} ${r.bill.currency}`,
          t(`billing.payment_status.${r.bill.payment_status}`),
        ]),
      ]
      : [
        [C("station"), C("commission"), C("fee"), C("tax"), C("total_amount")],
        ...d.customer_bills.map((r) => [
          r.station_name,
          ...[r.bill.commission_amount, r.bill.fee_amount, r.bill.tax_amount, r.bill.total_amount]
            .map((x) => `${units(x)} ${r.bill.currency}`),
        ]),
      ];
    return csvDownload(`${what}_bills_${q.period}.csv`, rows);
  };
  app.get("/report", async (c) => {
    const q = queryOf(c, reportQuerySchema);
    const bimonthly = parsePeriod(q.period).kind === "bimonthly";
    const unitId = q.unit ?? null;
    try {
      return pdfResponse(
        await generateReport(deps, c.var.user, {
          reportType: unitId
            ? (bimonthly ? "bimester" : "monthly")
            : (bimonthly ? "bimester_customer" : "customer"),
          stationId: q.station,
          unitId,
          period: q.period,
          language: q.language,
        }),
      );
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      deps.log.log("warn", "owner report refused", { key: e.key, ...q });
      const year = parsePeriod(q.period).year;
      return c.redirect(`/customer/billing?year=${year}&report_error=1`);
    }
  });
  app.get("/export/units.csv", exportTable("units"));
  app.get("/export/customer.csv", exportTable("customer"));
  return app;
}
