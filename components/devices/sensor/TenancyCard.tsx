/**
 * The tenancy history of a sensor's unit on the admin's sensor page (issue 24), with the
 * forms that record a move-out (its date, the meter's reading and, when asked, the final bill
 * at once) and a move-in. Plain forms: they work without JavaScript.
 */
import type { Translate } from "../../../services/platform/i18n.ts";
import { Card } from "../../kit/mod.ts";
import { FieldError } from "../../Field.tsx";

/** One tenancy as the card shows it: local dates, the last day included. */
interface TenancyRow {
  tenant: string;
  /** `YYYY-MM-DD`, or null for a tenancy from before tenancies were kept. */
  from: string | null;
  /** The last day, or null while it lasts. */
  to: string | null;
  reading_from_kwh: number | null;
  reading_to_kwh: number | null;
}

/** Props of {@link TenancyCard}. */
export interface TenancyCardProps {
  t: Translate;
  rows: TenancyRow[];
  /** The tenant who holds the unit now, or null. */
  current: string | null;
  tenants: { id: number; name: string }[];
  /** Where the forms post: `<base>/move-out`, `<base>/move-in`. */
  base: string;
  /** Today in the business time zone (the date fields' default and upper bound). */
  today: string;
  /** A refusal of the last form (`out` or `in`), translated, and the field it names. */
  error: { message: string; field: string; form: "out" | "in" } | null;
  /** What the last form did (translated), or null. */
  done: string | null;
}

const kwh = (n: number) => `${n.toLocaleString("en-US")} kWh`;

function DateAndReading(
  { t, prefix, today, error }: {
    t: Translate;
    prefix: string;
    today: string;
    error: TenancyCardProps["error"];
  },
) {
  const T = (k: string) => t(`devices.tenancy.${k}`);
  const fieldError = (f: string) =>
    error?.form === prefix && error.field === f ? error.message : undefined;
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-date`}>{T("effective_from")}</label>
        <input
          id={`${prefix}-date`}
          name="effective_from"
          type="date"
          defaultValue={today}
          max={today}
          required
          aria-invalid={fieldError("effective_from") ? true : undefined}
        />
        <FieldError id={`${prefix}-date`} message={fieldError("effective_from")} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-reading`}>{T("reading_kwh")}</label>
        <input
          id={`${prefix}-reading`}
          name="reading_kwh"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={fieldError("reading_kwh") ? true : undefined}
        />
        <FieldError id={`${prefix}-reading`} message={fieldError("reading_kwh")} />
      </div>
    </>
  );
}

/** The card. */
export function TenancyCard(props: TenancyCardProps) {
  const { t, rows, current, tenants, base, today, error, done } = props;
  const T = (k: string) => t(`devices.tenancy.${k}`);
  return (
    <Card title={T("title")} headingId="tenancies" data-testid="tenancies">
      {done && <p className="alert alert-success" role="status">{done}</p>}
      {error && !["effective_from", "reading_kwh"].includes(error.field) && (
        <p className="alert alert-error" role="alert">{error.message}</p>
      )}
      {rows.length === 0 ? <p className="hint">{T("none")}</p> : (
        <ul className="tenancy-list">
          {[...rows].reverse().map((r, i) => (
            <li key={i} data-testid="tenancy">
              <strong>{r.tenant}</strong>
              <span className="nowrap">
                {r.from ?? T("since_start")} – {r.to ?? T("current")}
              </span>
              {(r.reading_from_kwh !== null || r.reading_to_kwh !== null) && (
                <small className="hint">
                  {[
                    r.reading_from_kwh === null
                      ? null
                      : `${T("reading_from")}: ${kwh(r.reading_from_kwh)}`,
                    r.reading_to_kwh === null
                      ? null
                      : `${T("reading_to")}: ${kwh(r.reading_to_kwh)}`,
                  ].filter(Boolean).join(" · ")}
                </small>
              )}
            </li>
          ))}
        </ul>
      )}
      {current !== null && (
        <form method="post" action={`${base}/move-out`} className="tenancy-form">
          <h3>{T("move_out")} · {current}</h3>
          <DateAndReading t={t} prefix="out" today={today} error={error} />
          <div className="field field-check">
            <label>
              <input name="final_bill" type="checkbox" value="yes" defaultChecked />
              {T("final_bill")}
            </label>
          </div>
          <button type="submit" className="btn btn-secondary">{T("move_out")}</button>
        </form>
      )}
      {tenants.length > 0 && (
        <form method="post" action={`${base}/move-in`} className="tenancy-form">
          <h3>{T("move_in")}</h3>
          <div className="field">
            <label htmlFor="in-tenant">{T("tenant")}</label>
            <select id="in-tenant" name="tenant_id" required defaultValue="">
              <option value="" disabled>{T("choose_tenant")}</option>
              {tenants.map((x) => <option key={x.id} value={String(x.id)}>{x.name}</option>)}
            </select>
          </div>
          <DateAndReading t={t} prefix="in" today={today} error={error} />
          <button type="submit" className="btn btn-secondary">{T("move_in")}</button>
        </form>
      )}
    </Card>
  );
}
