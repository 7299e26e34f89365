/** Form fields with server-side errors linked to their inputs. */

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
    <div className="field">
      <label htmlFor={id}>{label}</label>
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
      <FieldError id={id} message={error} />
    </div>
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
  const field = (id: ContactKey, type: string, auto: string) => (
    <TextField
      id={id}
      label={label(id)}
      type={type}
      autoComplete={autofill ? auto : "off"}
      value={values[id]}
      error={errors[id]}
    />
  );
  return (
    <>
      {field("email", "email", "email")}
      {field("full_name", "text", "name")}
      {field("phone", "tel", "tel")}
    </>
  );
}
