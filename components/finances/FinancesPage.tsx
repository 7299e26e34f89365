/**
 * The admin's finances (`/admin/finances`, spec 001 section 2; issue 14): the currency and
 * date filters (a GET form), four tiles, the revenue and profit breakdowns, the bimonthly trend
 * and the zone performance charts (only with data; the charts' numbers also as tables), the
 * four detail cards, the explanation, the empty and the error states, and CSV exports.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { BlockFigures, FinanceOverview, RevenueRow } from "../../services/finances/mod.ts";
import { FINANCE_CURRENCIES } from "../../core/finances.ts";
import { periodLabel } from "../../core/periods.ts";
import { Card, FormError, PageHeader } from "../kit/mod.ts";
import { Figures, type Money, RevenueProfitChart, Tile } from "./parts.tsx";
import { formatterOf } from "../../core/format.ts";

/** The filters of the page. */
interface FinanceFilters {
  currency: string;
  start_date?: string;
  end_date?: string;
}

/** Props of {@link FinancesPage}: figures in cents; null where loading failed. */
interface FinancesPageProps {
  t: Translate;
  filters: FinanceFilters;
  overview: FinanceOverview | null;
  bimonthly: (RevenueRow & { period: string })[] | null;
  zones: (RevenueRow & { zone_name: string })[] | null;
  /** Locale keys of what failed (`finances.errors.fetch_financial`, …). */
  errors: string[];
}

type T = (k: string, p?: Record<string, string | number>) => string;

/** The block fields each detail card shows. */
const UNIT_FIELDS: (keyof BlockFigures)[] = [
  "total_bills",
  "paid_bills",
  "paid_revenue",
  "total_base_tariff",
  "total_energy_cost",
  "total_compensation_cost",
  "total_tax_cost",
];
const CUSTOMER_FIELDS: (keyof BlockFigures)[] = [
  "total_bills",
  "paid_bills",
  "paid_revenue",
  "total_commission",
  "total_fees",
  "total_tax",
  "paid_commission",
  "paid_fees",
];

/** Whether a block field is a count (not money). */
export const isCount = (k: keyof BlockFigures) => k === "total_bills" || k === "paid_bills";

/** The detail cards: their title key, the block and the fields shown. */
export function detailCards(o: FinanceOverview) {
  return [
    { key: "monthly_unit", block: o.unit_billing.monthly, fields: UNIT_FIELDS },
    { key: "bimonthly_unit", block: o.unit_billing.bimonthly, fields: UNIT_FIELDS },
    { key: "monthly_customer", block: o.customer_billing.monthly, fields: CUSTOMER_FIELDS },
    { key: "bimonthly_customer", block: o.customer_billing.bimonthly, fields: CUSTOMER_FIELDS },
  ];
}

function Filters({ F, filters }: { F: T; filters: FinanceFilters }) {
  return (
    <form className="card finance-filters" method="get" action="/admin/finances">
      <label className="field">
        <span>{F("currency.label")}</span>
        <select name="currency" defaultValue={filters.currency}>
          {FINANCE_CURRENCIES.map((c) => (
            <option key={c} value={c}>{F(`currency.${c.toLowerCase()}`)}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{F("filters.start_date")}</span>
        <input type="date" name="start_date" defaultValue={filters.start_date ?? ""} />
      </label>
      <label className="field">
        <span>{F("filters.end_date")}</span>
        <input type="date" name="end_date" defaultValue={filters.end_date ?? ""} />
      </label>
      <button type="submit" className="btn">{F("finances_page.refresh")}</button>
    </form>
  );
}

function exportHref(what: string, f: FinanceFilters): string {
  const q = new URLSearchParams({ currency: f.currency });
  if (f.start_date) q.set("start_date", f.start_date);
  if (f.end_date) q.set("end_date", f.end_date);
  return `/admin/finances/export/${what}.csv?${q}`;
}

function Tiles({ F, o, money }: { F: T; o: FinanceOverview; money: Money }) {
  const v = o.overview, c = o.currency;
  const u = o.unit_billing.combined, cb = o.customer_billing.combined;
  return (
    <div className="stats" data-testid="finance-tiles">
      <Tile
        label={F("tiles.bills_revenue")}
        value={money(v.total_revenue, c)}
        sub={[F("tiles.bills_profit", { amount: money(v.total_profit, c) })]}
        testId="tile-bills"
      />
      <Tile
        label={F("tiles.payments_revenue")}
        value={money(v.payment_revenue, c)}
        sub={[F("tiles.payments_profit", { amount: money(v.payment_profit, c) })]}
        testId="tile-payments"
      />
      <Tile
        label={F("tiles.total_bills")}
        value={v.total_bills}
        sub={[
          `${F("tiles.tenants_label")} · ${
            F("tiles.unit_billing_count", { count: u.total_bills, paid: u.paid_bills })
          }`,
          F("tiles.customer_billing_count", { count: cb.total_bills }),
        ]}
        testId="tile-count"
      />
      <Tile
        label={F("tiles.profit_margin")}
        value={`${v.profit_margin.toFixed(2)}%`}
        sub={[F("tiles.payment_margin", { percent: v.payment_profit_margin.toFixed(2) })]}
        testId="tile-margin"
      />
    </div>
  );
}

function Breakdowns({ F, o, money }: { F: T; o: FinanceOverview; money: Money }) {
  const c = o.currency, u = o.unit_billing.combined, cb = o.customer_billing.combined;
  const m = (n: number) => money(n, c);
  return (
    <div className="finance-grid">
      <Card title={F("revenue_breakdown.title")} data-testid="revenue-breakdown">
        <Figures
          rows={[
            [F("revenue_breakdown.unit_revenue"), m(o.overview.unit_revenue)],
            [F("revenue_breakdown.base_tariff"), m(u.total_base_tariff)],
            [F("revenue_breakdown.energy_cost"), m(u.total_energy_cost)],
            [F("revenue_breakdown.compensation_cost"), m(u.total_compensation_cost)],
            [F("revenue_breakdown.unit_tax"), m(u.total_tax_cost)],
            [F("revenue_breakdown.customer_revenue"), m(o.overview.customer_revenue)],
            [F("revenue_breakdown.commission"), m(cb.total_commission)],
            [F("revenue_breakdown.fees"), m(cb.total_fees)],
            [F("revenue_breakdown.customer_tax"), m(cb.total_tax)],
          ]}
          total={[F("revenue_breakdown.total_revenue"), m(o.overview.total_revenue)]}
        />
      </Card>
      <Card title={F("profit_breakdown.title")} data-testid="profit-breakdown">
        <Figures
          rows={[
            [F("profit_breakdown.commission"), m(cb.total_commission)],
            [F("profit_breakdown.fees"), m(cb.total_fees)],
            [F("profit_breakdown.total_profit"), m(o.overview.total_profit)],
            [F("profit_breakdown.paid_commission"), m(cb.paid_commission)],
            [F("profit_breakdown.paid_fees"), m(cb.paid_fees)],
          ]}
          total={[F("profit_breakdown.payment_profit"), m(o.overview.payment_profit)]}
        />
      </Card>
    </div>
  );
}

function Charts(
  { t, F, p }: { t: Translate; F: T; p: FinancesPageProps },
) {
  const trend = p.bimonthly ?? [];
  const zones = p.zones ?? [];
  const charts = [
    {
      area: "bimonthly_trend",
      kind: "line" as const,
      labelKey: "period",
      labels: trend.map((r) => periodLabel(t, r.period)),
      rows: trend,
      csv: "bimonthly",
      testId: "bimonthly-trend",
      name: "finance-trend",
    },
    {
      area: "zone_performance",
      kind: "bars" as const,
      labelKey: "zone",
      labels: zones.map((r) => r.zone_name),
      rows: zones,
      csv: "zones",
      testId: "zone-performance",
      name: "finance-zones",
    },
  ];
  return (
    <>
      {charts.filter((c) => c.rows.length > 0).map(({ csv, ...c }) => (
        <AreaChart
          key={c.area}
          F={F}
          currency={p.filters.currency}
          href={exportHref(csv, p.filters)}
          {...c}
        />
      ))}
    </>
  );
}

/** A card of revenue and profit per period or zone (`area`), with its CSV export. */
function AreaChart(
  { F, area, kind, labelKey, labels, rows, currency, href, testId, name }: {
    F: T;
    area: string;
    kind: "line" | "bars";
    /** The key (under `area`) of the labels' column heading. */
    labelKey: string;
    labels: string[];
    rows: { total_revenue: number; profit: number }[];
    currency: string;
    href: string;
    testId: string;
    name: string;
  },
) {
  return (
    <section className="card finance-section" data-testid={testId}>
      <div className="section-head">
        <h2>{F(`${area}.title`)}</h2>
        <a className="btn btn-sm btn-secondary" href={href}>{F("export.csv")}</a>
      </div>
      <RevenueProfitChart
        kind={kind}
        labels={labels}
        revenue={{
          name: `${F(`${area}.revenue`)} (${currency})`,
          cents: rows.map((r) => r.total_revenue),
        }}
        profit={{ name: `${F(`${area}.profit`)} (${currency})`, cents: rows.map((r) => r.profit) }}
        caption={F(`${area}.title`)}
        labelHeading={F(`${area}.${labelKey}`)}
        noData={F("empty.title")}
        name={name}
      />
    </section>
  );
}

function Details(
  { F, o, filters, money }: { F: T; o: FinanceOverview; filters: FinanceFilters; money: Money },
) {
  return (
    <section className="finance-section" data-testid="finance-details">
      <div className="section-head">
        <h2>{F("details.title")}</h2>
        <a className="btn btn-sm btn-secondary" href={exportHref("details", filters)}>
          {F("export.csv")}
        </a>
      </div>
      <div className="finance-grid">
        {detailCards(o).map(({ key, block, fields }) => (
          <section key={key} className="card" data-testid={`detail-${key}`}>
            <h3>{F(`details.${key}`)}</h3>
            {block.total_bills === 0 ? <p className="muted">{F("details.no_bills")}</p> : (
              <Figures
                rows={fields.map((k) => [
                  F(`details.fields.${k}`),
                  isCount(k) ? block[k] : money(block[k], o.currency),
                ])}
              />
            )}
          </section>
        ))}
      </div>
    </section>
  );
}

/** What the portal keeps and what it passes on, as the explanation lists them. */
const EXPLAINED = [
  ["kept", ["commission", "fees"]],
  ["passed", ["base_tariff", "energy_compensation", "taxes"]],
] as const;

function Explanation({ F }: { F: T }) {
  return (
    <Card
      title={F("explanation.title")}
      className="finance-section"
      data-testid="finance-explanation"
    >
      <p>{F("explanation.intro")}</p>
      <div className="explanation-cols">
        {EXPLAINED.map(([side, items]) => (
          <div key={side}>
            <h3>{F(`explanation.${side}_title`)}</h3>
            <ul>
              {items.map((k) => <li key={k}>{F(`explanation.${side}_${k}`)}</li>)}
            </ul>
          </div>
        ))}
      </div>
      <p className="formula">{F("explanation.formula")}</p>
    </Card>
  );
}

/** The page. */
export function FinancesPage(p: FinancesPageProps) {
  const { t } = p;
  const { money } = formatterOf(t);
  const F: T = (k, x) => t(`finances.${k}`, x);
  const o = p.overview;
  const empty = o !== null && o.overview.total_bills === 0;
  return (
    <>
      <PageHeader title={F("finances_page.title")} subtitle={F("finances_page.subtitle")} />
      <Filters F={F} filters={p.filters} />
      {p.errors.length > 0 && (
        <FormError testId="finance-error">
          <strong>{F("errors.label")}</strong>
          {p.errors.map((k) => <div key={k}>{t(k)}</div>)}
        </FormError>
      )}
      {empty && (
        <Card title={F("empty.title")} className="empty" data-testid="finance-empty">
          <p>{F("empty.message")}</p>
        </Card>
      )}
      {o && !empty && (
        <>
          <Tiles F={F} o={o} money={money} />
          <Breakdowns F={F} o={o} money={money} />
          <Charts t={t} F={F} p={p} />
          <Details F={F} o={o} filters={p.filters} money={money} />
        </>
      )}
      <Explanation F={F} />
    </>
  );
}
