/** Form fields with server-side errors linked to their inputs. */
import type { ReactNode } from "react";

/**
 * A form field's error, linked to its input by id (`<id>-error`); `alert` announces it (an
 * island's field whose error may appear while the user is on the page).
 */
export function FieldError(
  { id, message, alert }: { id: string; message?: string; alert?: boolean },
) {
  return message
    ? (
      <p className="field-error" id={`${id}-error`} role={alert ? "alert" : undefined}>
        {message}
      </p>
    )
    : null;
}

/** ARIA attributes of an input with a possible error. */
export function errAttrs(id: string, message?: string) {
  return message ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}

/** ARIA attributes of an input whose hint is `<id>-hint`: its error, when it has one, instead. */
export function hintAttrs(id: string, message?: string) {
  return { "aria-describedby": `${id}-hint`, ...errAttrs(id, message) };
}

/** Props of {@link Field}. */
interface FieldProps {
  /** The control's id. */
  id: string;
  label: ReactNode;
  /** Under the control; with the id `<id>-hint` when `hintLinked` (see {@link hintAttrs}). */
  hint?: ReactNode;
  hintLinked?: boolean;
  error?: string;
  /** Announce the error (see {@link FieldError}). */
  alert?: boolean;
  /** The wrapper's class: `field` unless told. */
  className?: string;
  /** The control (input, select or a row of them), given its id, name and ARIA attributes. */
  children: ReactNode;
}

/** A labelled control, its hint and its error below it. */
export function Field(
  { id, label, hint, hintLinked, error, alert, className = "field", children }: FieldProps,
) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="hint" id={hintLinked ? `${id}-hint` : undefined}>{hint}</p>}
      <FieldError id={id} message={error} alert={alert} />
    </div>
  );
}

/** A choice of a {@link SelectField}. */
export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/** Props of {@link SelectField}: a {@link Field}'s, the value, the choices. */
interface SelectFieldProps extends Omit<FieldProps, "children" | "className"> {
  value?: string;
  /** The first choice, the empty value's (none chosen). */
  empty?: string;
  options: SelectOption[];
  required?: boolean;
}

/** A labelled select (its name is its id), its hint and its error. */
export function SelectField({ value, empty, options, required, ...field }: SelectFieldProps) {
  const { id, error } = field;
  return (
    <Field {...field}>
      <select
        id={id}
        name={id}
        defaultValue={value}
        aria-required={required || undefined}
        {...(field.hintLinked ? hintAttrs(id, error) : errAttrs(id, error))}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>{o.label}</option>
        ))}
      </select>
    </Field>
  );
}

/** Props of {@link TextField}. */
interface TextFieldProps {
  id: string;
  label: string;
  type?: string;
  autoComplete?: string;
  value?: string;
  error?: string;
  required?: boolean;
  /** Bounds of a month, date or number input. */
  min?: string;
  max?: string;
}

/** A labelled input (its name is its id) with its error below it. */
export function TextField(
  { id, label, type = "text", autoComplete, value, error, required, min, max }: TextFieldProps,
) {
  return (
    <Field id={id} label={label} error={error}>
      <input
        id={id}
        name={id}
        type={type}
        autoComplete={autoComplete}
        required={required}
        min={min}
        max={max}
        defaultValue={value}
        {...errAttrs(id, error)}
      />
    </Field>
  );
}

/** Options of a field made by {@link textFieldsOf}. */
interface BoundFieldOptions {
  type?: string;
  autoComplete?: string;
  required?: boolean;
}

/** The text fields of one form: each made by id and label, shown with its value and error. */
export function textFieldsOf(
  values: Readonly<Record<string, string | undefined>>,
  errors: Readonly<Record<string, string>>,
) {
  return (id: string, label: string, o: BoundFieldOptions = {}) => (
    <TextField key={id} id={id} label={label} value={values[id]} error={errors[id]} {...o} />
  );
}

/** The contact fields of an account. */
type ContactKey = "email" | "full_name" | "phone";

/** Props of {@link ContactFields}. */
interface ContactFieldsProps {
  label: (id: ContactKey) => string;
  values: Record<ContactKey, string>;
  errors: Record<string, string>;
  /** The browser may fill them in: one's own settings, not an account one manages. */
  autofill?: boolean;
}

/** E-mail, full name and phone of an account, in this order. */
export function ContactFields({ label, values, errors, autofill }: ContactFieldsProps) {
  const text = textFieldsOf(values, errors);
  const field = (id: ContactKey, type: string, auto: string) =>
    text(id, label(id), { type, autoComplete: autofill ? auto : "off" });
  return (
    <>
      {field("email", "email", "email")}
      {field("full_name", "text", "name")}
      {field("phone", "tel", "tel")}
    </>
  );
}
