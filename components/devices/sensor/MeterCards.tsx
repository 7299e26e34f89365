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

/** What a field adds to its form, name, label, value and error. */
type FieldExtra = Pick<FieldProps, "type" | "hint" | "decimal" | "maxLength">;

/**
 * One of the forms (`id`): its error box, its fields in order (labelled by
 * `meters.<id>_form.<name>`) and its submit button.
 */
function PostedForm<K extends string>(
  { M, id, state, fields, secondary }: {
    M: (k: string) => string;
    id: "reading" | "replace";
    state: MeterForm<K>;
    fields: [K, FieldExtra][];
    secondary?: boolean;
  },
) {
  return (
    <>
      <FormError notice={false} testId={`${id}-error`}>{state.error}</FormError>
      <form method="post" action={state.action} className="form" noValidate>
        <div className="form-grid">
          {fields.map(([name, extra]) => (
            <Field
              key={name}
              form={id}
              name={name}
              label={M(`${id}_form.${name}`)}
              value={state.values[name]}
              error={state.errors[name]}
              {...extra}
            />
          ))}
        </div>
        <div className="form-actions">
          <button type="submit" className={secondary ? "btn btn-secondary" : "btn"}>
            {M(`${id}_form.submit`)}
          </button>
        </div>
      </form>
    </>
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
        <PostedForm
          M={M}
          id="reading"
          state={reading}
          fields={[
            ["at", { type: "datetime-local" }],
            ["kwh", { decimal: true, hint: M("reading_form.kwh_hint") }],
            ["note", { maxLength: 500 }],
          ]}
        />
      </Card>
      <Card title={M("replace_form.title")} headingId="replace-meter" data-testid="replace-meter">
        <p className="hint">{M("replace_form.intro")}</p>
        <PostedForm
          M={M}
          id="replace"
          state={replace}
          fields={[
            ["serial_number", {}],
            ["at", { type: "datetime-local" }],
            ["last_kwh", { decimal: true }],
            ["first_kwh", { decimal: true }],
          ]}
          secondary
        />
      </Card>
    </div>
  );
}
