/**
 * What the station and sensor forms share: the page (the kit's form head, the form with its
 * error box and cancel/save actions), the titled sections, the required/optional mark and the
 * one-line text field.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import { errAttrs, FieldError } from "../Field.tsx";
import { Card, FormError, FormHead } from "../kit/mod.ts";

/** A form's texts: `F("title_edit")` is `devices.{station|sensor}_form.title_edit`. */
export type FormTexts = (k: string, p?: Record<string, string | number>) => string;

/** Props of {@link DeviceForm}. */
interface DeviceFormProps {
  /** `station` or `sensor`: the test ids `{kind}-form` and `save-{kind}`. */
  kind: "station" | "sensor";
  F: FormTexts;
  editing: boolean;
  subtitle: string;
  /** Where the back and cancel links lead. */
  back: string;
  action: string;
  error?: string;
  children: ReactNode;
}

/**
 * The page of a device form: its head, the error box, and the plain POST form that works
 * without JavaScript, its sections and then Cancel and Save.
 */
export function DeviceForm(
  { kind, F, editing, subtitle, back, action, error, children }: DeviceFormProps,
) {
  return (
    <>
      <FormHead
        title={F(editing ? "title_edit" : "title_create")}
        subtitle={subtitle}
        back={back}
        backLabel={F("back")}
      />
      <FormError testId="form-error">{error}</FormError>
      <form
        method="post"
        action={action}
        className="form device-form"
        noValidate
        data-testid={`${kind}-form`}
      >
        {children}
        <DeviceFormActions
          back={back}
          cancel={F("cancel")}
          save={F(editing ? "update" : "create")}
          testId={`save-${kind}`}
        />
      </form>
    </>
  );
}

/** A titled card of a form whose fields sit in a grid. */
export function FormSection({ id, title, children }: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card title={title} headingId={id}>
      <div className="form-grid">
        {children}
      </div>
    </Card>
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
function DeviceFormActions({ back, cancel, save, testId }: {
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
