/**
 * The sensor page's meters: Meter History (the meters that measured the unit, with their
 * first and last index), Manual Readings (each marked Manual) with the form to add one, and
 * the Replace Meter form. Plain forms: they work without JavaScript, and a refused one comes
 * back with its values and the field errors under each field.
 */
import type { Translate } from "../../../services/platform/i18n.ts";
import { errAttrs, FieldError } from "../../Field.tsx";
import { Card, FormError, ResponsiveList, StatusBadge } from "../../kit/mod.ts";

/** A meter row, worded. */
interface MeterRow {
  serial: string;
  from: string;
  to: string;
  first: string;
  last: string;
}

/** A manual reading row, worded. */
interface ReadingRow {
  at: string;
  kwh: string;
  serial: string;
  note: string;
}

/** A form's typed values, errors by field (translated) and its error box. */
interface MeterForm<K extends string> {
  action: string;
  values: Record<K, string>;
  errors: Partial<Record<K, string>>;
  error?: string;
}

/** Props of {@link MeterCards}. */
export interface MeterCardsProps {
  t: Translate;
  meters: MeterRow[];
  readings: ReadingRow[];
  reading: MeterForm<"at" | "kwh" | "note">;
  replace: MeterForm<"serial_number" | "at" | "last_kwh" | "first_kwh">;
  /** A success notice (reading saved, meter replaced). */
  notice?: string;
}

interface FieldProps {
  form: string;
  name: string;
  label: string;
  value: string;
  error?: string;
  type?: string;
  hint?: string;
  decimal?: boolean;
  maxLength?: number;
}

/** A labelled input of one of the forms (ids prefixed by the form, names as posted). */
function Field(
  { form, name, label, value, error, type = "text", hint, decimal, maxLength }: FieldProps,
) {
  const id = `${form}-${name}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const described = [error ? `${id}-error` : null, hintId].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value}
        inputMode={decimal ? "decimal" : undefined}
        maxLength={maxLength}
        autoComplete="off"
        {...errAttrs(id, error)}
        aria-describedby={described || undefined}
      />
      {hint && <p className="hint" id={hintId}>{hint}</p>}
      <FieldError id={id} message={error} />
    </div>
  );
}

/** The cards. */
export function MeterCards({ t, meters, readings, reading, replace, notice }: MeterCardsProps) {
  const M = (k: string) => t(`meters.${k}`);
  return (
    <div className="sensor-meters" id="meters" data-testid="meters">
      {notice && (
        <div className="alert alert-success notice" role="status" data-testid="meter-notice">
          {notice}
        </div>
      )}
      <Card title={M("history.title")} headingId="meter-history" data-testid="meter-history">
        <p className="hint">{M("history.intro")}</p>
        <ResponsiveList
          label={M("history.title")}
          rows={meters}
          rowKey={(m) => `${m.serial}-${m.from}`}
          columns={[
            { label: M("history.serial"), primary: true, className: "mono", cell: (m) => m.serial },
            { label: M("history.from"), cell: (m) => m.from },
            { label: M("history.to"), cell: (m) => m.to },
            { label: M("history.first_kwh"), numeric: true, cell: (m) => m.first },
            { label: M("history.last_kwh"), numeric: true, cell: (m) => m.last },
          ]}
        />
      </Card>
      <Card title={M("readings.title")} headingId="manual-readings" data-testid="manual-readings">
        <p className="hint">{M("readings.intro")}</p>
        <ResponsiveList
          label={M("readings.title")}
          rows={readings}
          rowKey={(r) => `${r.serial}-${r.at}`}
          columns={[
            { label: M("readings.at"), primary: true, cell: (r) => r.at },
            {
              label: M("readings.kind"),
              aside: true,
              cell: () => <StatusBadge tone="purple">{M("readings.manual")}</StatusBadge>,
            },
            { label: M("readings.kwh"), numeric: true, cell: (r) => r.kwh },
            { label: M("readings.meter"), className: "mono", cell: (r) => r.serial },
            { label: M("readings.note"), className: "notes-cell", cell: (r) => r.note },
          ]}
          empty={<p className="empty">{M("readings.empty")}</p>}
        />
        <h3>{M("reading_form.title")}</h3>
        <FormError notice={false} testId="reading-error">{reading.error}</FormError>
        <form method="post" action={reading.action} className="form" noValidate>
          <div className="form-grid">
            <Field
              form="reading"
              name="at"
              type="datetime-local"
              label={M("reading_form.at")}
              value={reading.values.at}
              error={reading.errors.at}
            />
            <Field
              form="reading"
              name="kwh"
              decimal
              label={M("reading_form.kwh")}
              hint={M("reading_form.kwh_hint")}
              value={reading.values.kwh}
              error={reading.errors.kwh}
            />
            <Field
              form="reading"
              name="note"
              maxLength={500}
              label={M("reading_form.note")}
              value={reading.values.note}
              error={reading.errors.note}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn">{M("reading_form.submit")}</button>
          </div>
        </form>
      </Card>
      <Card title={M("replace_form.title")} headingId="replace-meter" data-testid="replace-meter">
        <p className="hint">{M("replace_form.intro")}</p>
        <FormError notice={false} testId="replace-error">{replace.error}</FormError>
        <form method="post" action={replace.action} className="form" noValidate>
          <div className="form-grid">
            <Field
              form="replace"
              name="serial_number"
              label={M("replace_form.serial_number")}
              value={replace.values.serial_number}
              error={replace.errors.serial_number}
            />
            <Field
              form="replace"
              name="at"
              type="datetime-local"
              label={M("replace_form.at")}
              value={replace.values.at}
              error={replace.errors.at}
            />
            <Field
              form="replace"
              name="last_kwh"
              decimal
              label={M("replace_form.last_kwh")}
              value={replace.values.last_kwh}
              error={replace.errors.last_kwh}
            />
            <Field
              form="replace"
              name="first_kwh"
              decimal
              label={M("replace_form.first_kwh")}
              value={replace.values.first_kwh}
              error={replace.errors.first_kwh}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-secondary">{M("replace_form.submit")}</button>
          </div>
        </form>
      </Card>
    </div>
  );
}
