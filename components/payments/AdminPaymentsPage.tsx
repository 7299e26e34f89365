/**
 * The admin's payments page `/admin/payments` (issue 12, reconciliation): the SPEI charges, a
 * page at a time with a search box and the pager, with their bill, tenant, amount, status,
 * reference and dates; the events that do not match a bill
 * flagged for a person; recent processor events; the webhook verification code; in test mode a
 * "simulate transfer" button per charge in progress.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { ChargeRow, PaymentsOverview } from "../../services/payments/mod.ts";
import type { PaymentFlag, StoredEvent } from "../../core/payment_events.ts";
import {
  Card,
  FormError,
  PageHeader,
  PagerOf,
  type Paging,
  ResponsiveList,
  SearchForm,
} from "../kit/mod.ts";
import { paymentBadge } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { localDateTime } from "../../core/local_time.ts";
import { periodLabel } from "../../core/periods.ts";
import { TestModeNotice } from "./TestModeNotice.tsx";

/** Props of {@link AdminPaymentsPage}. */
interface AdminPaymentsPageProps {
  t: Translate;
  data: PaymentsOverview;
  /** The charges list's query, page and links. */
  paging: Paging;
  testMode: boolean;
  offsetMinutes: number;
  /** A translated message after an action (simulated, or its error). */
  notice?: string;
  error?: string;
}

/** The page. */
export function AdminPaymentsPage(
  { t, data, paging, testMode, offsetMinutes, notice, error }: AdminPaymentsPageProps,
) {
  const A = (k: string) => t(`payments.admin.${k}`);
  const mxn = (cents: number) => formatterOf(t).money(cents, "MXN");
  const time = (iso: string | null) => {
    const ms = iso ? Date.parse(iso) : NaN;
    if (Number.isNaN(ms)) return "—";
    return localDateTime(ms, offsetMinutes);
  };
  return (
    <>
      <PageHeader title={A("title")} subtitle={A("subtitle")} />
      {testMode && <TestModeNotice t={t} />}
      {notice && <p className="alert alert-success notice" role="status">{notice}</p>}
      <FormError>{error}</FormError>
      <Card title={A("charges")}>
        <div className="toolbar">
          <SearchForm
            action="/admin/payments"
            id="charges-search"
            label={A("search_label")}
            placeholder={A("search_placeholder")}
            q={paging.query.q}
            submit={t("common.search")}
            clear={A("search_clear")}
          />
        </div>
        <ResponsiveList<ChargeRow>
          label={A("charges")}
          framed={false}
          testId="charges"
          className="dense"
          rows={data.charges.rows}
          rowKey={(r) => r.charge.id}
          rowAttrs={(r) => ({ "data-bill": r.charge.bill_id, "data-charge": r.charge.id })}
          empty={<p className="muted">{A("no_charges")}</p>}
          columns={[
            {
              label: A("bill"),
              primary: true,
              cell: (r) => <ChargeBill t={t} row={r} />,
            },
            {
              label: A("status"),
              aside: true,
              cell: (r) => (
                <>
                  {r.bill
                    ? (
                      <span
                        className={paymentBadge(r.bill.payment_status)}
                        data-testid="bill-status"
                      >
                        {t(`payments.status.${r.bill.payment_status}`)}
                      </span>
                    )
                    : wordOf(t, "charge_statuses", r.charge.status)}
                  {testMode && r.charge.status === "in_progress" && (
                    <form method="post" action="/admin/payments/simulate" className="inline-form">
                      <input type="hidden" name="bill" value={String(r.charge.bill_id)} />
                      <button
                        type="submit"
                        className="btn btn-sm btn-secondary"
                        data-testid="simulate-transfer"
                      >
                        {A("simulate")}
                      </button>
                    </form>
                  )}
                </>
              ),
            },
            { label: A("tenant"), cell: (r) => r.tenant || "—" },
            {
              label: A("amount"),
              numeric: true,
              className: "nowrap",
              cell: (r) => mxn(r.charge.amount),
            },
            { label: A("reference"), className: "mono", cell: (r) => r.charge.reference },
            {
              label: A("expires"),
              cell: (r) => (
                <span className="cell-stack">
                  {time(r.charge.expiry_date)}
                  <small className="muted cell-note">
                    {A("created")} {time(r.charge.created_at)}
                  </small>
                </span>
              ),
            },
            {
              label: A("history"),
              cell: (r) => {
                const last = r.bill?.payment_history.at(-1);
                return last
                  ? (
                    <span className="cell-stack" data-testid="last-change">
                      {wordOf(t, "causes", last.cause)}
                      {last.note ? ` (${noteOf(t, last.note)})` : ""}
                      <small className="muted cell-note">{time(last.at)}</small>
                    </span>
                  )
                  : "—";
              },
            },
          ]}
        />
        <PagerOf t={t} label={A("charges")} paging={paging} />
      </Card>
      <Card title={A("flags")}>
        <ResponsiveList<PaymentFlag>
          label={A("flags")}
          framed={false}
          testId="payment-flags"
          rows={data.flags}
          rowKey={(f) => f.id}
          empty={<p className="muted">{A("no_flags")}</p>}
          columns={[
            { label: A("flag_reason"), primary: true, cell: (f) => A(`reasons.${f.reason}`) },
            { label: A("bill"), cell: (f) => (f.bill_id === null ? "—" : `#${f.bill_id}`) },
            { label: A("event"), cell: (f) => wordOf(t, "event_types", f.event_type) },
            { label: A("transaction"), className: "mono", cell: (f) => f.transaction_id },
            {
              label: A("amount"),
              numeric: true,
              cell: (f) => (f.amount === null ? "—" : mxn(f.amount)),
            },
            { label: A("received"), cell: (f) => time(f.at) },
          ]}
        />
      </Card>
      <Card title={A("events")}>
        <ResponsiveList<StoredEvent>
          label={A("events")}
          framed={false}
          testId="payment-events"
          rows={data.events}
          rowKey={(e) => `${e.type}:${e.transaction_id}`}
          empty={<p className="muted">—</p>}
          columns={[
            { label: A("event"), primary: true, cell: (e) => wordOf(t, "event_types", e.type) },
            {
              label: A("outcome"),
              aside: true,
              cell: (e) => <span data-outcome={e.outcome}>{wordOf(t, "outcomes", e.outcome)}</span>,
            },
            { label: A("transaction"), className: "mono", cell: (e) => e.transaction_id },
            { label: A("received"), cell: (e) => time(e.received_at) },
          ]}
        />
      </Card>
      <Card title={A("verification")}>
        <p data-testid="verification-code">
          {data.verification
            ? (
              <>
                <code>{data.verification.code}</code> · {time(data.verification.at)}
              </>
            )
            : A("no_verification")}
        </p>
      </Card>
    </>
  );
}

/**
 * A word the processor or the portal keeps (an event type, its outcome, a payment change's
 * cause, a charge status) in the reader's language; an unknown one as it came.
 */
function wordOf(t: Translate, group: string, word: string): string {
  const key = `payments.admin.${group}.${word.replaceAll(".", "_")}`;
  const text = t(key);
  return text === key ? word : text;
}

/** A payment change's note: the processor's event that caused it, or a word of the portal's. */
function noteOf(t: Translate, note: string): string {
  const event = wordOf(t, "event_types", note);
  return event === note ? wordOf(t, "notes", note) : event;
}

/** The bill a charge is for: its unit, station and period (the order id only without a bill). */
function ChargeBill({ t, row }: { t: Translate; row: ChargeRow }) {
  const b = row.bill;
  if (!b) return <span className="mono">{row.charge.order_id}</span>;
  const period = b.billing_month ?? b.billing_period ?? "";
  return (
    <span className="cell-stack" data-testid="charge-bill">
      {row.unit}
      <small className="muted cell-note">
        {row.station ? `${row.station} · ` : ""}
        {periodLabel(t, period)}
      </small>
    </span>
  );
}
