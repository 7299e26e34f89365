/**
 * A labelled number input of the zone form, its hint and its error (`fieldInput`): decimals a text field with the
 * decimal keypad, so a typed "1,5" reaches the server as typed (`core/decimal_input.ts` reads
 * it) instead of being dropped or rewritten by the browser's number field. Plain
 * markup without server-only imports: the ZoneLevels island uses it in the browser too.
 */
import { errAttrs, Field } from "../Field.tsx";
import { fieldInput } from "../../core/zone_levels.ts";

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
    <Field id={name} label={label} hint={hint} error={error} alert={alert}>
      <input
        id={name}
        name={name}
        {...fieldInput(name)}
        autoComplete="off"
        {...valueProps}
        {...errAttrs(name, error)}
      />
    </Field>
  );
}
