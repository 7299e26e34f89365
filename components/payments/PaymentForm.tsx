/**
 * The payment form `/user/payment?bill=…` and `/user/payment/success?bill=…` (spec 001 section
 * 2; the spec's navigation state is the bill in the URL): the summary (unit, billing period, due
 * date, total), the generate button with its spinner, then the CLABE, reference, bank, exact
 * amount, validity, receipt and copy buttons, the transfer instructions (both: 5 steps for the
 * named bank, 4 for others) and the wait notice; a reference the processor no longer knows is
 * said to be no longer valid, with the generate button; the error screens with a back button.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { TenantPayment } from "../../services/payments/mod.ts";
import { Card, FormError } from "../kit/mod.ts";
import { Island } from "../render.tsx";
import GenerateReference from "../../islands/GenerateReference.tsx";
import { PaymentsRefresh } from "./PaymentsRefresh.tsx";
import { paymentBadge } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { periodLabel } from "../../core/periods.ts";
import { TransferDetails } from "./TransferDetails.tsx";
import { TestModeNotice } from "./TestModeNotice.tsx";

/** Props of {@link PaymentForm}. */
interface PaymentFormProps {
  t: Translate;
  p: TenantPayment;
  testMode: boolean;
  now: number;
  offsetMinutes: number;
  /** The message of a failed generation, already translated. */
  error?: string;
}

function Back({ t }: { t: Translate }) {
  return (
    <a className="btn btn-secondary" href="/user/payments" data-testid="back-to-payments">
      {t("payments.payment_form.back")}
    </a>
  );
}

/** The error screen (no payment selected, load error) with its back button. */
export function PaymentError(
  { t, title, message }: { t: Translate; title: string; message?: string },
) {
  return (
    <section className="card" data-testid="payment-error">
      <h1>{title}</h1>
      {message && <p>{message}</p>}
      <Back t={t} />
    </section>
  );
}

/**
 * The transfer instructions, both groups: the receiving bank (BBVA on Openpay) says nothing of
 * the payer's, and the portal does not know the tenant's bank. The other banks' 4 steps come
 * first (most tenants pay from another bank), then the named bank's 5.
 */
function Instructions({ t, p }: { t: Translate; p: TenantPayment }) {
  const I = (k: string, x?: Record<string, string>) =>
    t(`payments.payment_form.instructions.${k}`, x);
  const values = {
    clabe: p.spei_clabe ?? "",
    reference: p.spei_reference ?? "",
    bank: p.spei_bank ?? "",
    amount: formatterOf(t).money(p.amount_due, p.currency),
  };
  const groups = [
    { group: "other_banks", steps: [1, 2, 3, 4] },
    { group: "named_bank", steps: [1, 2, 3, 4, 5] },
  ];
  return (
    <details className="card pay-instructions" data-testid="transfer-instructions">
      <summary>{I("show")}</summary>
      <p className="muted">{I("intro", values)}</p>
      {groups.map(({ group, steps }) => (
        <section key={group} data-testid={`instructions-${group}`}>
          <h3>{I(`${group}.title`)}</h3>
          <ol className="pay-steps">
            {steps.map((n) => <li key={n}>{I(`${group}.step_${n}`, values)}</li>)}
          </ol>
        </section>
      ))}
    </details>
  );
}

/** The form. */
export function PaymentForm({ t, p, testMode, now, offsetMinutes, error }: PaymentFormProps) {
  const F = (k: string) => t(`payments.payment_form.${k}`);
  const f = formatterOf(t, offsetMinutes);
  const pastDue = p.status === "overdue";
  const live = p.status === "awaiting_spei_transfer" && p.spei_clabe;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{F("title")}</h1>
        </div>
        <Back t={t} />
      </div>
      {testMode && <TestModeNotice t={t} />}
      {live && <PaymentsRefresh t={t} seconds={3} error="load_title" />}
      <FormError testId="generate-error">{error}</FormError>
      <Card title={F("summary.title")} data-testid="payment-summary">
        <dl className="pay-details">
          <div>
            <dt>{F("summary.unit")}</dt>
            <dd>{p.unit_name}</dd>
          </div>
          <div>
            <dt>{F("summary.billing_period")}</dt>
            <dd>{periodLabel(t, p.billing_period)}</dd>
          </div>
          <div>
            <dt>{F("summary.due_date")}</dt>
            <dd>{f.date(p.due_date)}</dd>
          </div>
          <div>
            <dt>{F("summary.total_amount")}</dt>
            <dd>
              <strong>{f.money(p.amount_due, p.currency)}</strong>
            </dd>
          </div>
          <div>
            <dt>{t("payments.payments_page.list.status")}</dt>
            <dd data-live="payment-status">
              <span className={paymentBadge(p.status)} data-testid="payment-status">
                {t(`payments.status.${p.status}`)}
              </span>
            </dd>
          </div>
        </dl>
        <div data-live="paid-notice">
          {p.status === "paid" && (
            <p className="pay-notice pay-paid" data-testid="paid-notice">
              {t("payments.paid_notice")}
            </p>
          )}
        </div>
      </Card>
      {live
        ? (
          <>
            <Card title={F("reference.title")} data-testid="spei-reference-card">
              <TransferDetails
                t={t}
                p={p}
                now={now}
                offsetMinutes={offsetMinutes}
                group="payment_form.reference"
              />
              <p className="muted">{F("reference.exact_amount_hint")}</p>
              <p className="muted">{F("reference.validity_note")}</p>
            </Card>
            <Instructions t={t} p={p} />
            <p className="pay-notice" data-testid="wait-notice">{F("wait_notice")}</p>
          </>
        )
        : p.status !== "paid" && (
          <section className="card">
            {p.reference_unknown && (
              <p className="pay-notice pay-warning" data-testid="reference-unknown">
                {t("payments.reference_unknown_notice")}
              </p>
            )}
            <p>{F("generate_description")}</p>
            <Island
              of={GenerateReference}
              props={{
                action: "/user/payment/generate",
                billId: p.id,
                label: p.status === "reference_expired"
                  ? t("payments.payments_page.generate_new_reference")
                  : F("generate"),
                busyLabel: F("generating"),
                danger: pastDue,
              }}
            />
          </section>
        )}
    </>
  );
}
