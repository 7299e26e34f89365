/**
 * The tenant's bills (`/user/billing`, spec 001 section 2): billing type, how it works (a
 * `<details>`), the year's three summary cards, cost and energy per period (chart island with a
 * table), the year and period pickers (a GET form), the bills of the period with a report
 * download each, and the PDF of the whole period. A paid bill shows its invoice (issue 31):
 * status and PDF and XML, or the request invoice button, or the link to add fiscal data.
 */
import { BillFacts } from "../reports/BillFacts.tsx";
import type { Translate } from "../../services/platform/i18n.ts";
import type { TenantBillRow, TenantOverview } from "../../services/tenant/mod.ts";
import { periodLabel } from "../../core/periods.ts";
import { amountDue } from "../../core/payment.ts";
import { cityOf } from "../../core/reports.ts";
import { Island } from "../render.tsx";
import { Stat } from "../HomePage.tsx";
import TenantChart from "../../islands/TenantChart.tsx";
import ReportDownload from "../../islands/ReportDownload.tsx";
import { formatterOf } from "../../core/format.ts";
import { paymentBadge } from "../payments/format.ts";
import { Card, PeriodPicker, Picker } from "../kit/mod.ts";
import type { TenantInvoice } from "../../services/invoices/views.ts";
import { InvoiceLine } from "../invoices/InvoiceLine.tsx";

/** Props of {@link BillingPage}. */
interface BillingPageProps {
  t: Translate;
  overview: TenantOverview;
  years: number[];
  periods: string[];
  period: string;
  bills: TenantBillRow[];
  /** The paid bills' invoices, by bill id. */
  invoices?: Map<number, TenantInvoice>;
  /** The outcome of an invoice request, translated. */
  notice?: string;
  error?: string;
  language: string;
}

type T = (k: string, p?: Record<string, string | number>) => string;

function HowItWorks({ B }: { B: T }) {
  const keys = ["base_tariff", "energy_cost", "seasonal", "compensation", "tax", "payment"];
  return (
    <details className="card how-it-works" data-testid="how-it-works">
      <summary>{B("how_it_works")}</summary>
      <h2>{B("how_it_works_modal.title")}</h2>
      <p>{B("how_it_works_modal.intro")}</p>
      <ul>
        {keys.map((k) => <li key={k}>{B(`how_it_works_modal.${k}`)}</li>)}
      </ul>
      <p>
        <strong>{B("how_it_works_modal.total")}</strong>
      </p>
    </details>
  );
}

/** A paid bill's invoice: its status and files, the request button, or why there is none. */
function BillInvoice(
  { t, billId, period, inv }: { t: Translate; billId: number; period: string; inv: TenantInvoice },
) {
  const I = (k: string) => t(`invoices.${k}`);
  const fiscalLink = (text: string) => (
    <a href="/user/settings#fiscal" data-testid="invoice-fiscal-link">{text}</a>
  );
  return (
    <div className="bill-invoice" data-testid="bill-invoice">
      {inv.invoice && <InvoiceLine t={t} invoice={inv.invoice} area="/user" />}
      {inv.invoice?.fixable && <small className="hint">{fiscalLink(I("fix_fiscal"))}</small>}
      {inv.offer === "request" && (
        <form method="post" action="/user/billing/invoice" className="inline-form">
          <input type="hidden" name="bill_id" value={billId} />
          <input type="hidden" name="period" value={period} />
          <button type="submit" className="btn btn-sm btn-secondary" data-testid="invoice-request">
            {I("request")}
          </button>
        </form>
      )}
      {inv.offer === "no_fiscal" && (
        <small className="hint">{fiscalLink(I("errors.no_fiscal"))}</small>
      )}
    </div>
  );
}

function BillCard(
  { t, B, r, language, inv }: {
    t: Translate;
    B: T;
    r: TenantBillRow;
    language: string;
    inv?: TenantInvoice;
  },
) {
  const b = r.bill;
  const { money, kwh, date } = formatterOf(t);
  const q = new URLSearchParams({
    station: String(b.station_id),
    unit: b.unit_id,
    period: r.period,
    language,
  });
  const type = r.period.length === 7 ? "monthly" : "bimester";
  const file = `${type}_report_${b.station_id}_${b.unit_id}_${r.period}.pdf`;
  return (
    <article className="item-card" data-testid="tenant-bill" id={`bill-${b.id}`}>
      <div className="item-head">
        <strong>{r.unit_name}</strong>
        <span className={paymentBadge(b.payment_status)} data-payment={b.payment_status}>
          {t(`billing.payment_status.${b.payment_status}`)}
        </span>
      </div>
      <dl>
        <dt>{B("bills.station")}</dt>
        <dd>{r.station_found ? r.station_name : t("billing.helpers.station_not_found")}</dd>
        <dt>{B("bills.location")}</dt>
        <dd>{cityOf(t, r.location)}</dd>
        <dt>{B("bills.unit")}</dt>
        <dd>{r.unit_name}</dd>
        <dt>{B("bills.energy")}</dt>
        <dd>{kwh(b.energy_consumption)}</dd>
        <dt>{B("bills.energy_cost")}</dt>
        <dd>{money(b.energy_cost, b.currency)}</dd>
        <dt>{B("bills.base_tariff")}</dt>
        <dd>{money(b.base_tariff, b.currency)}</dd>
        <dt>{B("bills.tax")}</dt>
        <dd data-testid="bill-tax">{money(b.tax_cost, b.currency)}</dd>
        <dt>{B("bills.total_cost")}</dt>
        <dd data-testid="bill-total">
          <strong>{money(b.total_cost, b.currency)}</strong>
        </dd>
        <dt>{B("bills.currency")}</dt>
        <dd>{b.currency}</dd>
        {b.payment_status !== "paid" && (
          <>
            <dt>{B("bills.amount_due")}</dt>
            <dd>{money(amountDue(b), b.currency)}</dd>
            <dt>{B("bills.due_date")}</dt>
            <dd>{date(b.payment_due_date)}</dd>
          </>
        )}
      </dl>
      <BillFacts t={t} details={b.calculation_details} currency={b.currency} />
      {inv && (inv.invoice || inv.offer) && (
        <BillInvoice t={t} billId={b.id} period={r.period} inv={inv} />
      )}
      <div className="page-actions">
        <Island
          of={ReportDownload}
          props={{
            href: `/user/billing/report?${q}`,
            filename: file,
            label: B("bills.download_report"),
            busyLabel: B("bills.downloading"),
            errorText: B("errors.download"),
            className: "btn btn-sm btn-secondary",
            testId: "bill-report",
          }}
        />
        {b.payment_status !== "paid" && (
          <a className="btn btn-sm" href="/user/payments">{B("bills.pay_now")}</a>
        )}
      </div>
    </article>
  );
}

/** The page. */
export function BillingPage(p: BillingPageProps) {
  const { t, overview: o } = p;
  const B: T = (k, x) => t(`tenant.billing.${k}`, x);
  const currency = o.yearly_overview.currency;
  const { money } = formatterOf(t);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{B("title")}</h1>
          <p className="page-sub" data-testid="billing-type">
            {B("billing_type", { type: B(o.billing_type) })}
          </p>
        </div>
      </div>
      {p.notice && (
        <p className="alert alert-success" role="status" data-testid="invoice-notice">
          {p.notice}
        </p>
      )}
      {p.error && (
        <p className="alert alert-error" role="alert" data-testid="invoice-error">{p.error}</p>
      )}
      <HowItWorks B={B} />
      <div className="stats" data-testid="billing-summary">
        <Stat
          label={B("summary.year_total_cost", { year: o.year })}
          value={money(o.yearly_overview.total_cost, currency)}
        />
        <Stat label={B("summary.total_bills")} value={o.yearly_overview.total_bills} />
        <Stat label={B("summary.assigned_units")} value={o.sensors_count} />
      </div>
      <Card title={B("chart.title")}>
        <Island
          of={TenantChart}
          props={{
            kind: "bars",
            labels: o.period_data.map((x) => x.period),
            series: [
              {
                name: `${B("chart.cost")} (${currency})`,
                values: o.period_data.map((x) => x.total_cost / 100),
              },
              { name: B("chart.energy"), values: o.period_data.map((x) => x.energy_consumption) },
            ],
            caption: t("tenant.dashboard.chart.table_caption"),
            labelHeading: B("period"),
            noData: t("tenant.common_states.no_data"),
            name: "billing",
          }}
        />
      </Card>
      <form className="card billing-pickers tenant-pickers" method="get" action="/user/billing">
        <Picker label={B("year")} name="year" value={o.year} options={p.years} />
        <PeriodPicker t={t} label={B("period")} value={p.period} periods={p.periods} />
        <button type="submit" className="btn">{B("show")}</button>
      </form>
      <section className="card" data-testid="period-bills" data-download-alerts>
        <div className="section-head">
          <h2>{B("bills.title", { period: periodLabel(t, p.period) })}</h2>
          {/* One bill's period PDF would be its report again: offered for two bills or more. */}
          {p.bills.length > 1 && (
            <Island
              of={ReportDownload}
              props={{
                href: `/user/billing/pdf?period=${p.period}&language=${p.language}`,
                filename: `${
                  p.period.length === 7 ? "monthly" : "bimester"
                }_report_${p.period}.pdf`,
                label: B("download_period_pdf"),
                busyLabel: B("bills.downloading"),
                errorText: B("errors.download"),
                className: "btn btn-sm btn-secondary",
                testId: "period-pdf",
              }}
            />
          )}
        </div>
        {p.bills.length === 0
          ? <p className="muted" data-testid="bills-empty">{B("bills.empty")}</p>
          : p.bills.map((r) => (
            <BillCard
              key={r.bill.id}
              t={t}
              B={B}
              r={r}
              language={p.language}
              inv={p.invoices?.get(r.bill.id)}
            />
          ))}
      </section>
    </>
  );
}
