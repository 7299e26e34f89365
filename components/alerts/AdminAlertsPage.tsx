/**
 * The admin's alerts page `/admin/alerts` (issue 30): open alerts first, then resolved ones,
 * filtered by state and rule, paged; and the rules, made from templates.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Alert } from "../../core/alerts.ts";
import { ALERT_TEMPLATES, type AlertRule } from "../../core/alert_rules.ts";
import { Card, FormError, PageHeader } from "../kit/mod.ts";
import { AlertList } from "./AlertList.tsx";
import { RuleForm } from "./RuleForm.tsx";
import { AlertDetail } from "./AlertDetail.tsx";
import type { AlertMoment } from "../../services/alerts/moment.ts";
import type { Formatter } from "../../core/format.ts";

/** Props of {@link AdminAlertsPage}. */
interface Props {
  t: Translate;
  alerts: Alert[];
  more: boolean;
  rules: AlertRule[];
  filter: { state: string; template?: string; page: number };
  value: (a: Alert) => string;
  offsetMinutes: number;
  notice?: string;
  error?: string;
  /** The alert asked for by `?id=`, with the readings around its opening. */
  detail?: { alert: Alert; moment: AlertMoment | null; f: Formatter } | null;
}

/** The page. */
export function AdminAlertsPage(p: Props) {
  const { t, filter } = p;
  const A = (k: string) => t(`alerts.${k}`);
  const link = (page: number) => {
    const q = new URLSearchParams({ state: filter.state, page: String(page) });
    if (filter.template) q.set("template", filter.template);
    return `/admin/alerts?${q}`;
  };
  return (
    <>
      <PageHeader title={A("title")} />
      {p.notice && <p className="alert alert-success notice" role="status">{p.notice}</p>}
      <FormError>{p.error}</FormError>
      {p.detail && (
        <AlertDetail
          t={t}
          alert={p.detail.alert}
          moment={p.detail.moment}
          value={p.value(p.detail.alert)}
          f={p.detail.f}
          offsetMinutes={p.offsetMinutes}
        />
      )}
      <Card title={A("title")}>
        <form method="get" action="/admin/alerts" className="form form-grid">
          <div className="field">
            <label htmlFor="alerts-state">{A("filters.state")}</label>
            <select id="alerts-state" name="state" defaultValue={filter.state}>
              <option value="all">{A("filters.all")}</option>
              <option value="active">{A("states.open")}</option>
              <option value="resolved">{A("states.resolved")}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="alerts-template">{A("filters.template")}</label>
            <select id="alerts-template" name="template" defaultValue={filter.template ?? ""}>
              <option value="">{A("filters.all")}</option>
              {ALERT_TEMPLATES.map((k) => <option key={k} value={k}>{A(`templates.${k}`)}</option>)}
            </select>
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-sm btn-secondary">{A("filters.apply")}</button>
          </div>
        </form>
        <AlertList
          t={t}
          alerts={p.alerts}
          value={p.value}
          offsetMinutes={p.offsetMinutes}
          actions
          detailed
        />
        <nav className="pager" aria-label={A("title")}>
          {filter.page > 1 && <a href={link(filter.page - 1)} rel="prev">‹ {filter.page - 1}</a>}
          {" "}
          {p.more && <a href={link(filter.page + 1)} rel="next">{filter.page + 1} ›</a>}
        </nav>
      </Card>
      <Card title={A("rules.title")}>
        {p.rules.length === 0
          ? <p className="muted">{A("rules.none")}</p>
          : (
            <ul className="plain-list" data-testid="alert-rules">
              {p.rules.map((r) => (
                <li key={r.id}>
                  <strong>{A(`templates.${r.template}`)}</strong>
                  {" · "}
                  {t(`alerts.rules.scopes.${r.scope.kind}`)}
                  {r.scope.kind === "meter"
                    ? ` ${r.scope.serial}`
                    : r.scope.kind === "all"
                    ? ""
                    : ` #${r.scope.id}`}
                  <form
                    method="post"
                    action={`/admin/alerts/rules/${r.id}/delete`}
                    className="inline-form"
                  >
                    <button type="submit" className="btn btn-sm btn-secondary">
                      {A("rules.delete")}
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          )}
        <RuleForm t={t} />
      </Card>
    </>
  );
}
