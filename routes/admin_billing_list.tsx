/**
 * The bill lists of the admin's billing pages (`/admin/units-billing`, `/admin/stations-billing`
 * and the per-kind paths): the rows of the picked zone and period, 25 a page (50 or 100 on
 * request), sorted by a visible column, with the pager; links keep the pickers.
 */
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import type { BillingPath } from "./_billing_paths.ts";
import {
  type StationBillRow,
  stationBillRows,
  UNIT_BILL_SORTS,
  unitBillPage,
} from "../services/billing/mod.ts";
import { parsePeriod } from "../core/periods.ts";
import { queryOf } from "./_validate.ts";
import { formatterOf } from "../core/format.ts";
import {
  listHref,
  type ListQuery,
  listQuerySchema,
  type Page,
  paginate,
  sortRows,
} from "../core/paging.ts";
import { firstWord, kwhText, periodLabel, type Pickers } from "../components/billing/model.ts";
import { UnitBills } from "../components/billing/UnitBills.tsx";
import { StationBills } from "../components/billing/StationBills.tsx";
import { PagerOf, type Paging } from "../components/kit/mod.ts";
import { clockOf } from "../services/platform/clock.ts";
import { invoiceViews } from "../services/invoices/views.ts";

/** The fields that carry a page's pickers back after an action. */
function backFields(p: Pickers): Record<string, string> {
  return p.zone
    ? { zone_id: String(p.zone.id), year: String(p.year), period: p.period }
    : { year: String(p.year), period: p.period };
}

/** Whether a period holds today. */
function isCurrent(period: string, today: { year: number; month: number }): boolean {
  try {
    const p = parsePeriod(period);
    return p.year === today.year && p.months.includes(today.month);
  } catch {
    return false;
  }
}

/** The sort keys of the station bill list (the first keeps the stored order). */
const STATION_SORTS = ["default", "station", "customer", "energy", "total"] as const;

/** The pager and sortable headers of a bill list, its links keeping the pickers. */
function pagingOf<S extends string>(
  path: BillingPath,
  pickers: Pickers,
  query: ListQuery<S>,
  page: Page<unknown>,
): Paging {
  const fixed = pickers.zone
    ? { zone_id: String(pickers.zone.id), year: String(pickers.year), period: pickers.period }
    : {};
  return {
    query: { ...query, page: page.page },
    page,
    href: (to) => listHref(path.base, to, { sort: "default" }, fixed),
  };
}

/** The list of one billing page (25 rows a page), its tiles' counts. */
export async function listOf(c: Context<UserEnv>, deps: Deps, path: BillingPath, pickers: Pickers) {
  const t = c.var.t;
  const back = backFields(pickers);
  const today = clockOf(deps).today();
  const zoneId = pickers.zone?.id ?? null;
  if (zoneId === null) return { list: null, total: 0, finalized: 0 };
  if (path.mode === "units") {
    const query = queryOf(c, listQuerySchema(UNIT_BILL_SORTS));
    const current = isCurrent(pickers.period, today);
    const page = await unitBillPage(deps, zoneId, pickers.period, current, query);
    const paging = pagingOf(path, pickers, query, page);
    const invoices = await invoiceViews(deps, c.var.user, page.rows.map((r) => r.id));
    return {
      list: (
        <>
          <UnitBills
            t={t}
            rows={page.rows}
            base={path.base}
            back={back}
            paging={paging}
            invoices={invoices}
          />
          <PagerOf t={t} label={t("billing.unit_billing.title")} paging={paging} />
        </>
      ),
      total: page.total,
      finalized: page.finalized,
    };
  }
  const query = queryOf(c, listQuerySchema(STATION_SORTS));
  const rows = await stationBillRows(deps, zoneId, pickers.period);
  if (query.sort !== "default") {
    const key: Record<typeof STATION_SORTS[number], (r: StationBillRow) => string | number | null> =
      {
        default: (r) => r.id,
        station: (r) => r.station,
        customer: (r) => r.customer,
        energy: (r) => r.energy_kwh,
        total: (r) => r.total,
      };
    sortRows(rows, key[query.sort], query.dir, (r) => r.id);
  }
  const page = paginate(rows, query);
  const paging = pagingOf(path, pickers, query, page);
  const invoices = await invoiceViews(deps, c.var.user, page.rows.map((r) => r.id), true);
  return {
    list: (
      <>
        <StationBills
          t={t}
          base={path.base}
          back={back}
          paging={paging}
          invoices={invoices}
          rows={page.rows.map((r) => ({
            id: r.id,
            station_id: r.station_id,
            kind: r.kind,
            period: periodLabel(t, r.period),
            station: r.station,
            customer: firstWord(r.customer),
            energy: kwhText(r.energy_kwh),
            commission: formatterOf(t).money(r.commission, r.currency),
            fee: formatterOf(t).money(r.fee, r.currency),
            tax: formatterOf(t).money(r.tax, r.currency),
            total: formatterOf(t).money(r.total, r.currency),
            finalized: r.is_finalized,
          }))}
        />
        <PagerOf t={t} label={t("billing.station_billing.title")} paging={paging} />
      </>
    ),
    total: rows.length,
    finalized: rows.filter((r) => r.is_finalized).length,
  };
}
