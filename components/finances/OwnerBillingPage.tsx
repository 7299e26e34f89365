/**
 * The owner's billing overview (`/customer/billing?year=`, spec 001 section 2; issue 13): the
 * billing type, how it works (a `<details>`), four tiles, revenue and profit per period (bars
 * and a line, with the numbers as a table), the year picker (a GET form) and, per period, the
 * unit bills and the charges owed to the provider, each bill with its PDF report (English or
 * Spanish) and each table with its CSV; only periods that have bills (one empty message when
 * the year has none); "Error downloading report" after a failed download. A station bill
 * shows its invoice to the owner (issue 31): status, PDF and XML.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { OwnerOverview, OwnerPeriodBills } from "../../services/finances/mod.ts";
import { periodLabel } from "../../core/periods.ts";
import { Card, type ListColumn, PageHeader, Picker, ResponsiveList } from "../kit/mod.ts";
import { type Money, RevenueProfitChart, Tile } from "./parts.tsx";
import { formatterOf } from "../../core/format.ts";
import { paymentBadge } from "../payments/format.ts";
import { LanguageMenu } from "../reports/LanguageMenu.tsx";
import type { InvoiceView } from "../../services/invoices/views.ts";
import { InvoiceLine } from "../invoices/InvoiceLine.tsx";
import type { StationReconciliation } from "../../services/owner/cfe_bills.ts";
import { CfeBillForm, type CfeBillFormProps, CfeReconciliation } from "../owner/CfeBill.tsx";

/** Props of {@link OwnerBillingPage}: figures in cents. */
interface OwnerBillingPageProps {
  t: Translate;
  overview: OwnerOverview;
  years: number[];
  /** The periods shown, newest first, with their bills. */
  periods: { period: string; bills: OwnerPeriodBills }[];
  /** A report download failed (shown once, after the redirect back). */
  reportError?: boolean;
  /** The station bills' invoices, by bill id. */
  invoices?: Map<number, InvoiceView>;
  /** A CFE bill was just saved. */
  cfeSaved?: boolean;
  /** The building's CFE bills against the tenants' (null: the owner has no station). */
  cfe?: {
    stations: StationReconciliation[];
    form: Omit<CfeBillFormProps, "t">;
  } | null;
}

/** The link of a bill's PDF report: the unit's, or the station's without `unit`. */
function reportHref(station: number, unit: string | null, period: string, language: string) {
  const u = unit ? `&unit=${unit}` : "";
  return `/customer/billing/report?station=${station}${u}&period=${period}&language=${language}`;
}

type T = (k: string, p?: Record<string, string | number>) => string;
type UnitRow = OwnerPeriodBills["unit_bills"][number];
type CustomerRow = OwnerPeriodBills["customer_bills"][number];

function HowItWorks({ B }: { B: T }) {
  const M = (k: string) => B(`how_it_works_modal.${k}`);
  return (
    <details className="card how-it-works" data-testid="how-it-works">
      <summary>{B("how_it_works")}</summary>
      <h2>{M("title")}</h2>
      <h3>{M("collect_title")}</h3>
      <ul>
        <li>{M("collect_tenant_payments")}</li>
        <li>{M("collect_unit_bills")}</li>
      </ul>
      <h3>{M("pay_title")}</h3>
      <ul>
        <li>{M("pay_commission")}</li>
        <li>{M("pay_fees")}</li>
        <li>{M("pay_taxes")}</li>
      </ul>
      <h3>{M("profit_title")}</h3>
      <p className="formula">{M("profit_formula")}</p>
    </details>
  );
}

function Tiles({ B, o, money }: { B: T; o: OwnerOverview; money: Money }) {
  const y = o.yearly_overview, c = y.currency;
  return (
    <div className="stats" data-testid="owner-tiles">
      <Tile
        label={B("tiles.bills_revenue")}
        value={money(y.total_revenue, c)}
        sub={[B("tiles.bills_profit", { amount: money(y.total_profit, c) })]}
        testId="tile-bills"
      />
      <Tile
        label={B("tiles.payment_revenue")}
        value={money(y.payment_revenue, c)}
        sub={[B("tiles.payment_profit", { amount: money(y.payment_profit, c) })]}
        testId="tile-payments"
      />
      <Tile
        label={B("tiles.total_bills")}
        value={y.total_invoices + y.total_customer_bills}
        sub={[
          B("tiles.bills_split", { unit: y.total_invoices, customer: y.total_customer_bills }),
          B("tiles.paid_count", { count: y.paid_bills }),
        ]}
        testId="tile-count"
      />
      <Tile
        label={B("tiles.profit_margin")}
        value={`${y.profit_margin.toFixed(2)}%`}
        sub={[B("tiles.payment_margin", { percent: y.payment_profit_margin.toFixed(2) })]}
        testId="tile-margin"
      />
    </div>
  );
}

function PeriodSection(
  { t, B, period, bills, invoices }: {
    t: Translate;
    B: T;
    period: string;
    bills: OwnerPeriodBills;
    invoices?: Map<number, InvoiceView>;
  },
) {
  const C = (k: string) => B(`period_section.columns.${k}`);
  const { money } = formatterOf(t);
  const report = <R extends UnitRow | CustomerRow>(unit: (r: R) => string | null) => ({
    label: C("report"),
    actions: true,
    cell: (r: R) => (
      <LanguageMenu
        t={t}
        small
        label={B("period_section.download_report")}
        languages={["en", "es"]}
        href={(l) => reportHref(r.bill.station_id, unit(r), period, l)}
      />
    ),
  });
  const unitColumns: ListColumn<UnitRow>[] = [
    { label: C("unit"), primary: true, cell: (r) => r.unit_name },
    {
      label: C("payment"),
      aside: true,
      cell: (r) => (
        <span className={paymentBadge(r.bill.payment_status)} data-payment={r.bill.payment_status}>
          {t(`billing.payment_status.${r.bill.payment_status}`)}
        </span>
      ),
    },
    { label: C("station"), cell: (r) => r.station_name },
    { label: C("tenant"), cell: (r) => r.tenant_name ?? "—" },
    { label: C("energy"), numeric: true, cell: (r) => r.bill.energy_consumption.toFixed(2) },
    {
      label: C("total_cost"),
      numeric: true,
      cell: (r) => money(r.bill.total_cost, r.bill.currency),
    },
    report((r) => r.bill.unit_id),
  ];
  const customerColumns: ListColumn<CustomerRow>[] = [
    { label: C("station"), primary: true, cell: (r) => r.station_name },
    {
      label: C("status"),
      aside: true,
      cell: () => <span className="badge badge-green">{t("billing.status.finalized")}</span>,
    },
    {
      label: C("commission"),
      numeric: true,
      cell: (r) => money(r.bill.commission_amount, r.bill.currency),
    },
    { label: C("fee"), numeric: true, cell: (r) => money(r.bill.fee_amount, r.bill.currency) },
    { label: C("tax"), numeric: true, cell: (r) => money(r.bill.tax_amount, r.bill.currency) },
    {
      label: C("total_amount"),
      numeric: true,
      cell: (r) => money(r.bill.total_amount, r.bill.currency),
    },
    {
      label: t("invoices.invoice"),
      cell: (r) => {
        const inv = invoices?.get(r.bill.id);
        return inv ? <InvoiceLine t={t} invoice={inv} area="/customer" /> : "—";
      },
    },
    report(() => null),
  ];
  const empty = bills.unit_bills.length === 0 && bills.customer_bills.length === 0;
  const href = (what: string) => `/customer/billing/export/${what}.csv?period=${period}`;
  return (
    <Card
      title={B("period_section.title", { period: periodLabel(t, period) })}
      className="period-section"
      data-testid="period-section"
      data-period={period}
    >
      {empty ? <p className="muted" data-testid="period-empty">{B("period_section.empty")}</p> : (
        <>
          <BillList
            title={B("period_section.unit_bills")}
            csv={{ href: href("units"), label: B("period_section.download_csv") }}
            columns={unitColumns}
            rows={bills.unit_bills}
            testId="owner-unit-bills"
          />
          <BillList
            title={B("period_section.customer_bills")}
            csv={{ href: href("customer"), label: B("period_section.download_csv") }}
            columns={customerColumns}
            rows={bills.customer_bills}
            testId="owner-customer-bills"
          />
        </>
      )}
    </Card>
  );
}

/** The page. */
export function OwnerBillingPage(p: OwnerBillingPageProps) {
  const { t, overview: o } = p;
  const B: T = (k, x) => t(`customer.billing_overview.${k}`, x);
  const c = o.yearly_overview.currency;
  return (
    <>
      <PageHeader
        title={B("title")}
        subtitle={
          <span data-testid="billing-type">{B("billing_type", { type: B(o.billing_type) })}</span>
        }
      />
      <HowItWorks B={B} />
      <Tiles B={B} o={o} money={formatterOf(t).money} />
      <Card title={B("chart.title")} className="finance-section">
        <RevenueProfitChart
          kind="bars"
          labels={o.period_data.map((x) => periodLabel(t, x.period))}
          revenue={{
            name: `${B("chart.revenue")} (${c})`,
            cents: o.period_data.map((x) => x.revenue),
          }}
          profit={{
            name: `${B("chart.profit")} (${c})`,
            cents: o.period_data.map((x) => x.profit),
          }}
          caption={B("chart.title")}
          labelHeading={t("finances.bimonthly_trend.period")}
          noData={B("period_section.empty")}
          name="owner-billing"
        />
      </Card>
      {p.cfe && <CfeSection t={t} cfe={p.cfe} saved={p.cfeSaved} />}
      <form className="card finance-filters" method="get" action="/customer/billing">
        <Picker label={B("year")} name="year" value={o.year} options={p.years} />
        <button type="submit" className="btn">{t("finances.finances_page.refresh")}</button>
      </form>
      {p.reportError && (
        <p className="alert alert-error" role="alert" data-testid="report-error">
          {B("errors.download")}
        </p>
      )}
      {p.periods.length === 0 && (
        <p className="card muted period-section" data-testid="periods-empty">
          {B("period_section.empty_year", { year: o.year })}
        </p>
      )}
      {p.periods.map(({ period, bills }) => (
        <PeriodSection
          key={period}
          t={t}
          B={B}
          period={period}
          bills={bills}
          invoices={p.invoices}
        />
      ))}
    </>
  );
}

/** The building's CFE bills: each station's reconciliation, then the form entering one. */
function CfeSection(
  { t, cfe, saved }: {
    t: Translate;
    cfe: NonNullable<OwnerBillingPageProps["cfe"]>;
    saved?: boolean;
  },
) {
  return (
    <section className="cfe-section" aria-label={t("cfe_bill.reconciliation.section")}>
      {saved && (
        <p className="alert alert-success" role="status" data-testid="cfe-saved">
          {t("cfe_bill.form.saved")}
        </p>
      )}
      {cfe.stations.map((s) => (
        <div id={`cfe-${s.station_id}`} key={s.station_id}>
          <CfeReconciliation
            t={t}
            station={s}
            pdfHref={(period) =>
              `/customer/billing/cfe-bill.pdf?station=${s.station_id}&period=${period}`}
          />
        </div>
      ))}
      <CfeBillForm t={t} {...cfe.form} />
    </section>
  );
}

/** One kind of the period's bills under its heading, with their CSV download. */
function BillList<R extends { bill: { id: number | string } }>(
  { title, csv, columns, rows, testId }: {
    title: string;
    csv: { href: string; label: string };
    columns: ListColumn<R>[];
    rows: R[];
    testId: string;
  },
) {
  return (
    <>
      <div className="section-head">
        <h3>{title}</h3>
        <a className="btn btn-sm btn-ghost" href={csv.href} download>{csv.label}</a>
      </div>
      <ResponsiveList
        label={title}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.bill.id}
        framed={false}
        testId={testId}
      />
    </>
  );
}
