/** A tenant's consumption alerts of their unit (issue 30), as insights on their dashboard. */
import type { Translate } from "../../services/platform/i18n.ts";
import type { OpenAlertsView } from "../../services/alerts/views.ts";
import { localDateTime } from "../../core/local_time.ts";
import { Card } from "../kit/mod.ts";

/** The card (nothing when there is no such alert). */
export function AlertInsights({ t, view }: { t: Translate; view: OpenAlertsView }) {
  if (view.alerts.length === 0) return null;
  return (
    <Card title={t("alerts.insights_title")}>
      <ul className="plain-list" data-testid="alert-insights">
        {view.alerts.map((a) => (
          <li key={a.id}>
            {t("alerts.insight", {
              rule: t(`alerts.templates.${a.template}`),
              since: localDateTime(a.opened_at, view.offsetMinutes),
              value: view.values[a.id] || "—",
            })}
          </li>
        ))}
      </ul>
    </Card>
  );
}
