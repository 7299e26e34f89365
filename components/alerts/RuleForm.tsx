/** The form of a new alert rule (issue 30): a template, what it applies to, its numbers. */
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

/** The form. */
export function RuleForm({ t }: { t: Translate }) {
  const R = (k: string) => t(`alerts.rules.${k}`);
  return (
    <form method="post" action="/admin/alerts/rules" className="stack-form" data-testid="rule-form">
      <h3>{R("add")}</h3>
      <label>
        {R("template")}
        <select name="template">
          {ALERT_TEMPLATES.map((k) => (
            <option key={k} value={k}>{t(`alerts.templates.${k}`)}</option>
          ))}
        </select>
      </label>
      <label>
        {R("scope")}
        <select name="scope">
          {["all", "zone", "station", "meter"].map((s) => (
            <option key={s} value={s}>{R(`scopes.${s}`)}</option>
          ))}
        </select>
      </label>
      <label>
        {R("scope_id")}
        <input name="scope_id" maxLength={100} />
      </label>
      {NUMBERS.map((k) => (
        <label key={k}>
          {R(k)}
          <input name={k} inputMode="decimal" placeholder={String(DEFAULT_PARAMS[k])} />
        </label>
      ))}
      <label>
        {R("repeat_hours")}
        <input name="repeat_hours" inputMode="numeric" placeholder="4" />
      </label>
      <label>
        {R("escalate_hours")}
        <input name="escalate_hours" inputMode="numeric" placeholder="12" />
      </label>
      <label>
        {R("escalate_to")}
        <input name="escalate_to" />
      </label>
      <button type="submit" className="btn btn-primary">{R("add")}</button>
    </form>
  );
}
