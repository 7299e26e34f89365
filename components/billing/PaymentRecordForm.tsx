/**
 * The form an admin records a payment received outside the processor with (issue 9): the bill
 * in short, how it was paid (cash or direct transfer), the date, a reference and a note. Plain
 * HTML: it works without JavaScript.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { UnitBillRow } from "../../services/billing/lists.ts";
import { formatterOf } from "../../core/format.ts";
import { errAttrs, FieldError, TextField } from "../Field.tsx";
import { periodLabel } from "./model.ts";

/** Props of {@link PaymentRecordForm}. */
interface PaymentRecordFormProps {
  t: Translate;
  bill: UnitBillRow;
  action: string;
  cancelHref: string;
  /** Hidden fields that bring the admin back to the same list. */
  back: Record<string, string>;
  values: { method?: string; payment_date: string; reference?: string; note?: string };
  errors: Record<string, string>;
  /** A refusal that is not about one field. */
  message: string | null;
}

/** The form. */
export function PaymentRecordForm(p: PaymentRecordFormProps) {
  const { t, bill, values, errors } = p;
  const P = (k: string) => t(`billing.payment_record.${k}`);
  return (
    <section className="card form-card" aria-labelledby="payment-title">
      <h1 id="payment-title">{P("title")}</h1>
      <p className="muted">{P("intro")}</p>
      <dl className="facts" data-testid="payment-bill">
        <dt>{t("billing.unit_billing.columns.station")}</dt>
        <dd>{bill.station} · {bill.unit}</dd>
        <dt>{t("billing.station_billing.columns.period")}</dt>
        <dd>{periodLabel(t, bill.period)}</dd>
        <dt>{P("amount_due")}</dt>
        <dd>{formatterOf(t).money(bill.amount_due, bill.currency)}</dd>
      </dl>
      {p.message && <div className="alert alert-error" role="alert">{p.message}</div>}
      <form method="post" action={p.action} className="form" noValidate>
        {Object.entries(p.back).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
        <fieldset className="field" {...errAttrs("method", errors.method)}>
          <legend>{P("method")}</legend>
          {(["cash", "transfer"] as const).map((m) => (
            <label key={m} className="check">
              <input type="radio" name="method" value={m} defaultChecked={values.method === m} />
              {" "}
              {P(`method_${m}`)}
            </label>
          ))}
          <FieldError id="method" message={errors.method} />
        </fieldset>
        <TextField
          id="payment_date"
          type="date"
          label={P("date")}
          value={values.payment_date}
          error={errors.payment_date}
          required
        />
        <TextField
          id="reference"
          label={P("reference")}
          value={values.reference ?? ""}
          error={errors.reference}
        />
        <div className="field">
          <label htmlFor="note">{P("note")}</label>
          <textarea
            id="note"
            name="note"
            maxLength={500}
            rows={3}
            defaultValue={values.note ?? ""}
            {...errAttrs("note", errors.note)}
          />
          <FieldError id="note" message={errors.note} />
        </div>
        <div className="form-actions">
          <a className="btn btn-secondary" href={p.cancelHref}>{P("cancel")}</a>
          <button type="submit" className="btn">{P("save")}</button>
        </div>
      </form>
    </section>
  );
}
