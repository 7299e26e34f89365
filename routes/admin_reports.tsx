/**
 * Admin report pages (spec 001 section 2): the station report (`/admin/report/station/{id}`)
 * and the unit report (`/admin/report/station/{id}/unit/{unitId}`). Until the reports are
 * built they say so plainly and link back to the station.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { idParam } from "./_http.ts";
import { appPage } from "./_page.tsx";
import { getDeviceView } from "../services/devices.ts";
import { ReportUnavailable } from "../components/devices/SensorDetail.tsx";
import { StationNotFound } from "../components/devices/StationData.tsx";

type Ctx = Context<AppEnv>;

/** Routes under /admin/report. */
export function adminReportRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const report = (kind: "station" | "unit") => async (c: Ctx) => {
    const t = c.var.t;
    const id = idParam(c.req.param("id"));
    const view = id === null ? null : await getDeviceView(deps, c.var.user!, id);
    if (view?.type !== "station") {
      return appPage(
        c,
        deps,
        t("devices.sensor_form.station_not_found_title"),
        <StationNotFound t={t} />,
        404,
      );
    }
    const title = t(`devices.report_unavailable.${kind}_title`);
    const back = `/admin/devices/station/${view.id}/data`;
    return appPage(c, deps, title, <ReportUnavailable t={t} title={title} back={back} />);
  };
  app.get("/admin/report/station/:id", report("station"));
  app.get("/admin/report/station/:id/unit/:unitId", report("unit"));

  return app;
}
