/**
 * The recalculation form of the unit report (spec 001 section 5, "Recalculation dialog"):
 * the four methods, manual consumption input, and the reason. Rendered on the server it is a
 * plain form that posts without JavaScript (the server validates the same rules); once
 * hydrated, the reason follows the chosen method, manual input is checked as it is typed
 * (`Invalid consumption input: {error}`), and the button stays disabled while no method is
 * chosen, the manual input is invalid, or the form is being sent.
 */
import { useEffect, useState } from "react";
import { parseConsumptionInput } from "../core/consumption_input.ts";

/** One method offered. */
interface RecalcMethodOption {
  value: string;
  name: string;
  description: string;
  /** The reason text this method suggests (manual input: `{{kwh}}` is filled in). */
  reason: string;
}

/** Props of {@link RecalcForm}. */
export interface RecalcFormProps {
  action: string;
  /** Hidden fields: bill id, period, year. */
  fields: Record<string, string>;
  methods: RecalcMethodOption[];
  /** Values of a previous attempt. */
  method: string;
  consumption: string;
  reason: string;
  /** Field errors already translated (from the server). */
  errors: Record<string, string>;
  /** Texts: manual input error keys → messages, and the labels. */
  consumptionErrors: Record<string, string>;
  labels: {
    method: string;
    consumption: string;
    placeholder: string;
    hint: string;
    reason: string;
    submit: string;
    submitting: string;
    invalidInput: string;
  };
}

/** The form. */
export default function RecalcForm(p: RecalcFormProps) {
  const [hydrated, setHydrated] = useState(false);
  const [method, setMethod] = useState(p.method);
  const [kwh, setKwh] = useState(p.consumption);
  const [reason, setReason] = useState(p.reason);
  const [touchedReason, setTouchedReason] = useState(p.reason !== "");
  const [busy, setBusy] = useState(false);
  useEffect(() => setHydrated(true), []);

  const manual = method === "manual_input";
  const parsed = manual ? parseConsumptionInput(kwh) : null;
  const manualError = parsed && !parsed.ok
    ? p.labels.invalidInput.replace("{{error}}", p.consumptionErrors[parsed.key] ?? parsed.key)
    : null;
  const suggest = (m: string, text: string) => {
    const opt = p.methods.find((x) => x.value === m);
    if (!opt) return "";
    const value = parseConsumptionInput(text);
    return opt.reason.replace("{{kwh}}", value.ok ? String(value.kwh) : "…");
  };
  const choose = (m: string) => {
    setMethod(m);
    if (!touchedReason) setReason(suggest(m, kwh));
  };
  const typeKwh = (text: string) => {
    setKwh(text);
    if (!touchedReason && manual) setReason(suggest(method, text));
  };
  const disabled = hydrated && (busy || method === "" || manualError !== null);
  const kwhError = hydrated && manual && kwh !== "" ? manualError : p.errors.energy_consumption;

  return (
    <form
      method="post"
      action={p.action}
      className="form recalc-form"
      onSubmit={() => setBusy(true)}
    >
      {Object.entries(p.fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <fieldset className="recalc-methods">
        <legend>{p.labels.method}</legend>
        {p.methods.map((m) => (
          <label key={m.value} className="mode-option">
            <input
              type="radio"
              name="recalculation_method"
              value={m.value}
              checked={method === m.value}
              onChange={() => choose(m.value)}
            />
            <span>
              <strong>{m.name}</strong>
              <span className="muted small">{m.description}</span>
            </span>
          </label>
        ))}
        {p.errors.recalculation_method && (
          <p className="field-error" role="alert">{p.errors.recalculation_method}</p>
        )}
      </fieldset>
      <label className="field">
        <span>{p.labels.consumption}</span>
        <input
          type="text"
          name="energy_consumption"
          inputMode="decimal"
          autoComplete="off"
          placeholder={p.labels.placeholder}
          value={kwh}
          onChange={(e) => typeKwh(e.currentTarget.value)}
          aria-invalid={kwhError ? true : undefined}
        />
        <span className="hint">{p.labels.hint}</span>
        {kwhError && <span className="field-error" role="alert">{kwhError}</span>}
      </label>
      <label className="field">
        <span>{p.labels.reason}</span>
        <textarea
          name="override_reason"
          rows={2}
          maxLength={2000}
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setTouchedReason(e.currentTarget.value !== "");
          }}
        />
        {p.errors.override_reason && (
          <span className="field-error" role="alert">{p.errors.override_reason}</span>
        )}
      </label>
      <div className="form-actions">
        <button type="submit" className="btn" disabled={disabled}>
          {busy ? p.labels.submitting : p.labels.submit}
        </button>
      </div>
    </form>
  );
}
