/**
 * The Create Access Code form: read-only code with Copy and Generate New, account type
 * (Customer or Tenant), the checklist of stations or units, notes, Cancel and Create.
 * Without JavaScript every part works by posting (Generate New re-renders on the server
 * with a new code); with it, Generate New draws a code in the browser, only the checklist
 * of the chosen type shows, and Create is disabled while submitting or with no code.
 */
import { useEffect, useState } from "react";
import CopyButton from "./CopyButton.tsx";
import {
  ACCESS_CODE_LENGTH,
  accessCodeFromBytes,
  type StationOption,
  type UnitOption,
} from "../core/access_code.ts";

/** Texts of the form, translated on the server. */
export interface AccessCodeFormTexts {
  code: string;
  copy: string;
  copied: string;
  generate: string;
  accountType: string;
  customer: string;
  tenant: string;
  stations: string;
  stationsHint: string;
  noStations: string;
  units: string;
  unitsHint: string;
  noUnits: string;
  notes: string;
  notesPlaceholder: string;
  cancel: string;
  create: string;
  creating: string;
}

/** Props of the form. */
export interface AccessCodeFormProps {
  action: string;
  cancelHref: string;
  code: string;
  role: "customer" | "user";
  notes: string;
  stations: StationOption[];
  units: UnitOption[];
  selectedStations: number[];
  selectedUnits: string[];
  /** Translated field errors (code, role, assignments, notes). */
  errors: Record<string, string>;
  texts: AccessCodeFormTexts;
}

/** A fresh random code drawn in the browser. */
export function newCode(): string {
  return accessCodeFromBytes(crypto.getRandomValues(new Uint8Array(ACCESS_CODE_LENGTH)));
}

/** A fieldset of checkboxes (the stations or units to assign), or a note that there are none. */
function Checklist({ legend, hint, empty, name, items, checked }: {
  legend: string;
  hint: string;
  /** Shown instead of the boxes when there is nothing to choose. */
  empty: string;
  /** The checkboxes' name; the fieldset's test id is `{name}-list`. */
  name: string;
  items: readonly { value: string; label: string }[];
  checked: (value: string) => boolean;
}) {
  return (
    <fieldset data-testid={`${name}-list`}>
      <legend>{legend}</legend>
      <p className="hint">{hint}</p>
      {items.length === 0 ? <p className="muted">{empty}</p> : (
        <div className="checklist">
          {items.map((x) => (
            <label key={x.value} className="check">
              <input
                type="checkbox"
                name={name}
                value={x.value}
                defaultChecked={checked(x.value)}
              />
              <span>{x.label}</span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** The form. */
export default function AccessCodeForm(props: AccessCodeFormProps) {
  const { texts, errors } = props;
  const [code, setCode] = useState(props.code);
  const [role, setRole] = useState(props.role);
  const [submitting, setSubmitting] = useState(false);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const blocked = submitting || !code;
  const errorOf = (id: string) =>
    errors[id] ? <p className="field-error" id={`${id}-error`}>{errors[id]}</p> : null;
  const invalid = (id: string) =>
    errors[id] ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};

  return (
    <form
      method="post"
      action={props.action}
      className="form"
      noValidate
      onSubmit={(e) => {
        if (blocked) {
          e.preventDefault();
          return;
        }
        setSubmitting(true);
      }}
    >
      {/* The default button: Enter submits Create, not Generate New. */}
      <button
        type="submit"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        disabled={blocked}
      />
      <section className="card">
        <div className="form" style={{ gap: "1.1rem" }}>
          <div className="field">
            <label htmlFor="code">{texts.code}</label>
            <div className="code-box">
              <input
                id="code"
                name="code"
                type="text"
                readOnly
                value={code}
                data-testid="access-code"
                {...invalid("code")}
              />
              <CopyButton text={code} label={texts.copy} copiedLabel={texts.copied} />
              <button
                type="submit"
                name="action"
                value="regenerate"
                className="btn btn-sm btn-secondary"
                formNoValidate
                onClick={(e) => {
                  e.preventDefault();
                  setCode(newCode());
                }}
              >
                {texts.generate}
              </button>
            </div>
            {errorOf("code")}
          </div>
          <fieldset>
            <legend>{texts.accountType}</legend>
            <div className="radio-row">
              {(["customer", "user"] as const).map((r) => (
                <label key={r} className="check">
                  <input
                    type="radio"
                    name="role"
                    value={r}
                    checked={role === r}
                    onChange={() => setRole(r)}
                  />
                  <span>{r === "customer" ? texts.customer : texts.tenant}</span>
                </label>
              ))}
            </div>
            {errorOf("role")}
          </fieldset>
          {(!enhanced || role === "customer") && (
            <Checklist
              legend={texts.stations}
              hint={texts.stationsHint}
              empty={texts.noStations}
              name="stations"
              items={props.stations.map((s) => ({ value: String(s.id), label: s.label }))}
              checked={(value) => props.selectedStations.includes(Number(value))}
            />
          )}
          {(!enhanced || role === "user") && (
            <Checklist
              legend={texts.units}
              hint={texts.unitsHint}
              empty={texts.noUnits}
              name="units"
              items={props.units}
              checked={(value) => props.selectedUnits.includes(value)}
            />
          )}
          {errorOf("assignments")}
          <div className="field">
            <label htmlFor="notes">{texts.notes}</label>
            <textarea
              id="notes"
              name="notes"
              maxLength={500}
              placeholder={texts.notesPlaceholder}
              defaultValue={props.notes}
              {...invalid("notes")}
            />
            {errorOf("notes")}
          </div>
        </div>
      </section>
      <div className="form-actions">
        <a className="btn btn-secondary" href={props.cancelHref}>{texts.cancel}</a>
        <button type="submit" className="btn" disabled={blocked} data-testid="create-code">
          {submitting ? texts.creating : texts.create}
        </button>
      </div>
    </form>
  );
}
