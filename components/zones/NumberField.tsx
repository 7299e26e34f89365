/**
 * A labelled decimal input of the zone form (never negative), its hint and its error. Plain
 * markup without server-only imports: the ZoneLevels island uses it in the browser too.
 */
import { errAttrs, FieldError } from "../Field.tsx";
import { fieldStep } from "../../core/zone_levels.ts";

/** Props of {@link NumberField}: the field's name (also its id), label, value, hint, error. */
interface NumberFieldProps {
  name: string;
  label: string;
  value: string;
  hint?: string;
  error?: string;
  /** A controlled input (in an island): called with the new text on each change. */
  onChange?: (value: string) => void;
  /** The error is announced (`role="alert"`). */
  alert?: boolean;
}

/** The field. */
export function NumberField(
  { name, label, value, hint, error, onChange, alert }: NumberFieldProps,
) {
  const valueProps = onChange
    ? {
      value,
      onChange: (e: { currentTarget: HTMLInputElement }) => onChange(e.currentTarget.value),
    }
    : { defaultValue: value };
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="number"
        step={fieldStep(name)}
        min="0"
        inputMode="decimal"
        {...valueProps}
        {...errAttrs(name, error)}
      />
      {hint && <p className="hint">{hint}</p>}
      <FieldError id={name} message={error} alert={alert} />
    </div>
  );
}
