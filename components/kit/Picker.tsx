/**
 * One labelled select of a GET picker form (a year, a period, a unit): the label wraps its
 * text and the select, so the form needs no ids.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import { periodLabel } from "../../core/periods.ts";

/** Props of {@link Picker}. */
export interface PickerProps<V extends string | number> {
  label: string;
  /** The query parameter it sets. */
  name: string;
  /** The option chosen now. */
  value: V;
  options: readonly V[];
  /** An option's text (default: the value itself). */
  text?: (option: V) => ReactNode;
}

/** The select. */
export function Picker<V extends string | number>(
  { label, name, value, options, text }: PickerProps<V>,
) {
  return (
    <label className="field">
      <span>{label}</span>
      <select name={name} defaultValue={String(value)}>
        {options.map((o) => <option key={o} value={o}>{text ? text(o) : o}</option>)}
      </select>
    </label>
  );
}

/** Props of {@link PeriodPicker}. */
export interface PeriodPickerProps {
  t: Translate;
  label: string;
  /** The period shown now (`2026-03`, `2026-03-04`). */
  value: string;
  periods: readonly string[];
}

/** The `period` select, each period worded (`March 2026`, `Mar-Apr 2026`). */
export function PeriodPicker({ t, label, value, periods }: PeriodPickerProps) {
  return (
    <Picker
      label={label}
      name="period"
      value={value}
      options={periods}
      text={(x) => periodLabel(t, x)}
    />
  );
}
