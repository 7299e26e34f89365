/**
 * The admin's finances page, mounted at `/admin/finances` (spec 001 section 2; issue 14):
 * `GET /admin/finances?currency=&start_date=&end_date=` and the CSV exports of its detail cards
 * and of its bimonthly and zone tables, `GET /admin/finances/export/{details,bimonthly,zones}.csv`
 * with the same filters. Admins only.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { queryOf } from "./_validate.ts";
import { renderPage } from "./_page.tsx";
import { type CsvCell, csvDownload, csvNumber } from "./_csv.ts";
import { type FinanceQuery, financeQuerySchema } from "../core/finance_queries.ts";
import type { FactFilter } from "../core/finances.ts";
import { centsToUnits } from "../core/money.ts";
import {
  adminOverview,
  bimonthlyData,
  type FinanceOverview,
  zonesPerformance,
} from "../services/finances/mod.ts";
import { detailCards, FinancesPage, isCount } from "../components/finances/FinancesPage.tsx";

const filterOf = (q: FinanceQuery): FactFilter & { currency: string } => ({
  currency: q.currency ?? "MXN",
  start: q.start_date,
  end: q.end_date,
});

/** The query of the page or an export; a bad one is a bad request naming the field. */
function query(c: Context<UserEnv>) {
  return queryOf(c, financeQuerySchema);
}

/** A CSV download named `finances_{what}_{currency}.csv`. */
const csvResponse = (what: string, currency: string, rows: CsvCell[][]) =>
  csvDownload(`finances_${what}_${currency}.csv`, rows);

/** Routes under /admin/finances. */
export function adminFinanceRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  app.get("/", async (c) => {
    const q = query(c);
    const f = filterOf(q);
    const errors: string[] = [];
    const failed = (key: string, what: string) => (e: unknown) => {
      deps.log.log("error", `finances ${what} failed`, { error: String(e) });
      errors.push(key);
      return null;
    };
    const overview = await adminOverview(deps, f).then((o) => o.by_currency[0]).catch(
      failed("finances.errors.fetch_financial", "overview"),
    );
    const bimonthly = await bimonthlyData(deps, f).catch(
      failed("finances.errors.fetch_bimonthly", "bimonthly"),
    );
    const zones = await zonesPerformance(deps, f).catch(
      failed("finances.errors.fetch_zone", "zones"),
    );
    return renderPage(c, deps, c.var.t("finances.finances_page.title"), FinancesPage, {
      filters: { currency: f.currency, start_date: q.start_date, end_date: q.end_date },
      overview,
      bimonthly,
      zones,
      errors,
    });
  });

  app.get("/export/details.csv", async (c) => {
    const f = filterOf(query(c));
    const t = c.var.t;
    const o: FinanceOverview = (await adminOverview(deps, f)).by_currency[0];
    const rows: CsvCell[][] = [[
      t("finances.export.card"),
      t("finances.export.field"),
      t("finances.export.value"),
      t("finances.currency.label"),
    ]];
    for (const { key, block, fields } of detailCards(o)) {
      for (const k of fields) {
        rows.push([
          t(`finances.details.${key}`),
          t(`finances.details.fields.${k}`),
          isCount(k) ? block[k] : money(block[k]),
          isCount(k) ? "" : o.currency,
        ]);
      }
    }
    return csvResponse("details", f.currency, rows);
  });

  /** A revenue and profit table of `section`, a row per period or zone (`labelKey`, `label`). */
  const figuresCsv = <R extends { total_revenue: number; profit: number; currency: string }>(
    what: string,
    section: string,
    labelKey: string,
    load: (deps: Deps, f: FactFilter) => Promise<R[]>,
    label: (r: R) => string,
  ) =>
  async (c: Context<UserEnv>) => {
    const f = filterOf(query(c));
    const t = c.var.t;
    const rows: CsvCell[][] = [[
      t(`finances.${section}.${labelKey}`),
      t(`finances.${section}.revenue`),
      t(`finances.${section}.profit`),
      t("finances.currency.label"),
    ]];
    for (const r of await load(deps, f)) {
      rows.push([label(r), money(r.total_revenue), money(r.profit), r.currency]);
    }
    return csvResponse(what, f.currency, rows);
  };
  app.get(
    "/export/bimonthly.csv",
    figuresCsv("bimonthly", "bimonthly_trend", "period", bimonthlyData, (r) => r.period),
  );
  app.get(
    "/export/zones.csv",
    figuresCsv("zones", "zone_performance", "zone", zonesPerformance, (r) => r.zone_name),
  );
  return app;
}

const money = (cents: number) => csvNumber(centsToUnits(cents), 2);
