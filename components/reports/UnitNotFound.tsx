/** The Unit Not Found state of the unit report, with the way back to the station report. */
import type { Translate } from "../../services/platform/i18n.ts";
import { NotFound } from "../kit/mod.ts";

/** Props of {@link UnitNotFound}. */
interface UnitNotFoundProps {
  t: Translate;
  stationId: number;
}

/** The state. */
export function UnitNotFound({ t, stationId }: UnitNotFoundProps) {
  return (
    <NotFound
      title={t("reports.unit_report.not_found_title")}
      message={t("reports.unit_report.not_found_message")}
      back={{
        href: `/admin/report/station/${stationId}`,
        label: t("reports.unit_report.back_to_station"),
      }}
      testId="unit-not-found"
    />
  );
}
