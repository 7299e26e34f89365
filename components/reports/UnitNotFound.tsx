/** The Unit Not Found state of the unit report, with the way back to the station report. */
import type { Translate } from "../../services/platform/i18n.ts";

/** Props of {@link UnitNotFound}. */
export interface UnitNotFoundProps {
  t: Translate;
  stationId: number;
}

/** The state. */
export function UnitNotFound({ t, stationId }: UnitNotFoundProps) {
  return (
    <section className="card empty" data-testid="unit-not-found">
      <h1>{t("reports.unit_report.not_found_title")}</h1>
      <p>{t("reports.unit_report.not_found_message")}</p>
      <a className="btn btn-secondary" href={`/admin/report/station/${stationId}`}>
        {t("reports.unit_report.back_to_station")}
      </a>
    </section>
  );
}
