/**
 * One alert opened from `/admin/alerts?id=` (issue 30; the link of its messages): what tripped
 * it, its state, and the meter's readings from an hour before it opened to an hour after.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Alert } from "../../core/alerts.ts";
import type { AlertMoment } from "../../services/alerts/moment.ts";
import type { Formatter } from "../../core/format.ts";
import { localDateTime } from "../../core/local_time.ts";
import { Card, Facts } from "../kit/mod.ts";
import { AlertChart } from "./AlertChart.tsx";

/** Props of {@link AlertDetail}. */
interface Props {
  t: Translate;
  alert: Alert;
  moment: AlertMoment | null;
  value: string;
  f: Formatter;
  offsetMinutes: number;
}

/** The alert's card. */
export function AlertDetail({ t, alert: a, moment, value, f, offsetMinutes }: Props) {
  const A = (k: string) => t(`alerts.${k}`);
  return (
    <Card
      title={`${A(`templates.${a.template}`)} · ${a.subject}`}
      className="alert-detail"
      data-testid="alert-detail"
    >
      <Facts
        className="facts"
        rows={[
          [A("columns.state"), A(`states.${a.state}`)],
          [
            A("columns.station"),
            <a key="s" href={`/admin/devices/station/${a.station_id}/data`}>#{a.station_id}</a>,
          ],
          [A("columns.opened"), localDateTime(a.opened_at, offsetMinutes)],
          [A("columns.value"), value || "—"],
        ]}
      />
      {moment && <AlertChart t={t} moment={moment} f={f} offsetMinutes={offsetMinutes} />}
      <p>
        <a href="/admin/alerts">{t("alert_views.back")}</a>
      </p>
    </Card>
  );
}
