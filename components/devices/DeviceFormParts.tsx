/**
 * What the station and sensor forms share: the page head with its back link, the
 * required/optional mark, the one-line text field and the cancel/save actions.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import { errAttrs, FieldError } from "../Field.tsx";

/** The page head: title, subtitle and a back link. */
export function DeviceFormHead({ title, subtitle, back, backLabel }: {
  title: string;
  subtitle: string;
  back: string;
  backLabel: string;
}) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        <p className="muted" style={{ margin: 0 }}>{subtitle}</p>
      </div>
      <div className="page-actions">
        <a className="btn btn-secondary" href={back}>{backLabel}</a>
      </div>
    </div>
  );
}

/** The small 'required' or 'optional' mark after a label. */
export function RequiredMark({ t, required }: { t: Translate; required: boolean }) {
  return (
    <span className="muted small">
      {t(`devices.station_form.fields.${required ? "required" : "optional"}`)}
    </span>
  );
}

/** A one-line text input (its name is its id) with its label, mark and error. */
export function DeviceTextField({ id, label, mark, value, placeholder, auto, required, error }: {
  id: string;
  label: string;
  mark: ReactNode;
  value: string;
  placeholder?: string;
  auto?: string;
  required?: boolean;
  error?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} {mark}
      </label>
      <input
        id={id}
        name={id}
        type="text"
        autoComplete={auto ?? "off"}
        maxLength={200}
        defaultValue={value}
        placeholder={placeholder}
        aria-required={required || undefined}
        {...errAttrs(id, error)}
      />
      <FieldError id={id} message={error} />
    </div>
  );
}

/** Cancel (back) and the submit button. */
export function DeviceFormActions({ back, cancel, save, testId }: {
  back: string;
  cancel: string;
  save: string;
  testId: string;
}) {
  return (
    <div className="form-actions">
      <a className="btn btn-secondary" href={back}>{cancel}</a>
      <button type="submit" className="btn" data-testid={testId}>{save}</button>
    </div>
  );
}
