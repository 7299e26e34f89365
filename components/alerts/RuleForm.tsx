/** The form of a new alert rule (issue 30): a template, what it applies to, its numbers. */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import { ALERT_TEMPLATES, DEFAULT_PARAMS } from "../../core/alert_rules.ts";

const NUMBERS = [
  "minutes",
  "nominal_v",
  "tolerance_pct",
  "tolerance_w",
  "pf",
  "kw",
  "factor",
  "days",
] as const;

/** A labelled field of the form. */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={`rule-${id}`}>{label}</label>
      {children}
    </div>
  );
}

/** The form. */
export function RuleForm({ t }: { t: Translate }) {
  const R = (k: string) => t(`alerts.rules.${k}`);
  const input = (k: string, placeholder = "") => (
    <Field key={k} id={k} label={R(k)}>
      <input type="text" id={`rule-${k}`} name={k} inputMode="decimal" placeholder={placeholder} />
    </Field>
  );
  return (
    <form method="post" action="/admin/alerts/rules" className="form" data-testid="rule-form">
      <h3>{R("add")}</h3>
      <div className="form-grid">
        <Field id="template" label={R("template")}>
          <select id="rule-template" name="template">
            {ALERT_TEMPLATES.map((k) => (
              <option key={k} value={k}>{t(`alerts.templates.${k}`)}</option>
            ))}
          </select>
        </Field>
        <Field id="scope" label={R("scope")}>
          <select id="rule-scope" name="scope">
            {["all", "zone", "station", "meter"].map((s) => (
              <option key={s} value={s}>{R(`scopes.${s}`)}</option>
            ))}
          </select>
        </Field>
        <Field id="scope_id" label={R("scope_id")}>
          <input type="text" id="rule-scope_id" name="scope_id" maxLength={100} />
        </Field>
        {NUMBERS.map((k) => input(k, String(DEFAULT_PARAMS[k])))}
        {input("repeat_hours", "4")}
        {input("escalate_hours", "12")}
        <Field id="escalate_to" label={R("escalate_to")}>
          <input type="text" id="rule-escalate_to" name="escalate_to" maxLength={500} />
        </Field>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary">{R("add")}</button>
      </div>
    </form>
  );
}
