/**
 * The tenant's payments `/user/payments` (spec 001 section 2): refresh, the summary cards (next
 * payment due, pending total, awaiting transfer and overdue totals when above 0), the merged list
 * of unpaid bills by due date with Spanish month names, red past-due dates and MXN, transfer
 * details for bills waiting on a transfer, generate (or generate new) reference for the others,
 * the link to the billing history, and the empty state.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { PaymentsSummary, TenantPayment } from "../../services/payments/mod.ts";
import { PaymentsRefresh } from "./PaymentsRefresh.tsx";
import { paymentBadge } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { periodLabel } from "../../core/periods.ts";
import { TransferDetails } from "./TransferDetails.tsx";
import { TestModeNotice } from "./TestModeNotice.tsx";
import { Card } from "../kit/mod.ts";

/** Props of {@link PaymentsPage}. */
interface PaymentsPageProps {
  t: Translate;
  summary: PaymentsSummary;
  /** Local date `YYYY-MM-DD` (past-due dates are red). */
  today: string;
  now: number;
  offsetMinutes: number;
}

function Row(
  { t, p, today, now, offsetMinutes }: {
    t: Translate;
    p: TenantPayment;
    today: string;
    now: number;
    offsetMinutes: number;
  },
) {
  const P = (k: string) => t(`payments.payments_page.${k}`);
  const f = formatterOf(t, offsetMinutes);
  const pastDue = p.due_date !== null && p.due_date < today;
  return (
    <article className="item-card" data-testid="payment-row" data-bill={p.id}>
      <div className="item-head">
        <strong>{p.unit_name}</strong>
        <span className={paymentBadge(p.status)} data-testid="payment-status">
          {t(`payments.status.${p.status}`)}
        </span>
      </div>
      <dl>
        <dt>{P("list.billing_period")}</dt>
        <dd>{periodLabel(t, p.billing_period)}</dd>
        <dt>{P("list.due_date")}</dt>
        <dd className={pastDue ? "past-due" : undefined} data-testid="due-date">
          {f.date(p.due_date)}
          {pastDue && ` · ${P("list.past_due")}`}
        </dd>
        <dt>{P("list.amount")}</dt>
        <dd>
          <strong>{f.money(p.amount_due, p.currency)}</strong>
        </dd>
      </dl>
      {p.status === "awaiting_spei_transfer" && p.spei_clabe
        ? (
          <>
            <h3>{P("transfer_details.title")}</h3>
            <TransferDetails
              t={t}
              p={p}
              now={now}
              offsetMinutes={offsetMinutes}
              group="payments_page.transfer_details"
            />
          </>
        )
        : (
          <div className="pay-actions">
            {p.reference_unknown && (
              <p className="pay-notice pay-warning" data-testid="reference-unknown">
                {t("payments.reference_unknown_notice")}
              </p>
            )}
            <a
              className={`btn${pastDue ? " btn-danger" : ""}`}
              href={`/user/payment?bill=${p.id}`}
              data-testid="open-payment"
            >
              {p.status === "reference_expired" ? P("generate_new_reference") : P("generate_spei")}
            </a>
          </div>
        )}
    </article>
  );
}

/** A summary card: its amount and a smaller line under it. */
function Stat({ label, value, sub }: { label: string; value: string; sub?: string }) {
  return (
    <div className="stat">
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {sub && <div className="stat-sub">{sub}</div>}
    </div>
  );
}

/** The merged list of the summary: every unpaid bill once, by due date. */
function summaryList(s: PaymentsSummary): TenantPayment[] {
  const seen = new Map<number, TenantPayment>();
  for (
    const p of [
      ...s.pending_payments,
      ...s.overdue_payments,
      ...s.awaiting_spei_payments,
      ...s.expired_references,
    ]
  ) seen.set(p.id, p);
  return [...seen.values()].sort((a, b) =>
    (a.due_date ?? "").localeCompare(b.due_date ?? "") || a.id - b.id
  );
}

/** The page. */
export function PaymentsPage({ t, summary, today, now, offsetMinutes }: PaymentsPageProps) {
  const P = (k: string, x?: Record<string, string | number>) => t(`payments.payments_page.${k}`, x);
  const f = formatterOf(t, offsetMinutes);
  const list = summaryList(summary);
  const next = summary.next_payment_due;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{P("title")}</h1>
          <p className="page-sub">{P("subtitle")}</p>
        </div>
        <a className="btn btn-secondary" href="/user/payments" data-testid="refresh">
          {P("refresh")}
        </a>
      </div>
      {summary.test_mode && <TestModeNotice t={t} />}
      {summary.awaiting_spei_payments.length > 0 && (
        <PaymentsRefresh t={t} seconds={10} error="error_loading_payments" />
      )}
      <div className="stats" data-live="payment-cards" data-testid="payment-cards">
        <Stat
          label={P("cards.next_payment_due")}
          value={next ? f.money(next.amount, "MXN") : "—"}
          sub={next ? P("cards.due_on", { date: f.date(next.date) }) : P("cards.no_upcoming")}
        />
        <Stat
          label={P("cards.pending_total")}
          value={f.money(summary.total_pending_amount, "MXN")}
          sub={P("cards.pending_count", { count: summary.pending_count })}
        />
        {summary.total_awaiting_spei_amount > 0 && (
          <Stat
            label={P("cards.awaiting_transfer_total")}
            value={f.money(summary.total_awaiting_spei_amount, "MXN")}
          />
        )}
        {summary.total_overdue_amount > 0 && (
          <Stat
            label={P("cards.overdue_total")}
            value={f.money(summary.total_overdue_amount, "MXN")}
          />
        )}
      </div>
      {list.length === 0
        ? (
          <Card title={P("empty.title")} className="empty" data-testid="payments-empty">
            <p>{P("empty.message")}</p>
          </Card>
        )
        : (
          <Card title={P("list.title")}>
            <div className="pay-list" data-testid="payment-list">
              {list.map((p) => (
                <Row key={p.id} t={t} p={p} today={today} now={now} offsetMinutes={offsetMinutes} />
              ))}
            </div>
          </Card>
        )}
      <p>
        <a href="/user/billing" data-testid="payment-history">{P("payment_history")}</a>
      </p>
    </>
  );
}
