/** A labelled decimal input of the zone form (never negative), its hint and its error. */
import { errAttrs, FieldError } from "../Field.tsx";

/** Props of {@link NumberField}: the field's name (also its id), label, value, hint, error. */
export interface NumberFieldProps {
  name: string;
  label: string;
  value: string;
  hint?: string;
  error?: string;
}

/** The field. */
export function NumberField({ name, label, value, hint, error }: NumberFieldProps) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="number"
        step="any"
        min="0"
        inputMode="decimal"
        defaultValue={value}
        {...errAttrs(name, error)}
      />
      {hint && <p className="hint">{hint}</p>}
      <FieldError id={name} message={error} />
    </div>
  );
}
