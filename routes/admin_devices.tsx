/**
 * The admin's station list (spec 000 section 2): `/admin/devices?q=`, searched by name, city,
 * serial number, customer and station id. The other device pages are `admin_station_form.tsx`,
 * `admin_station_data.tsx`, `admin_sensor_form.tsx` and `admin_sensor_data.tsx`; data comes
 * from `services/devices/`.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { appPage } from "./_page.tsx";
import { listDeviceViews } from "../services/devices/mod.ts";
import { StationList, type StationRow } from "../components/devices/StationList.tsx";
import { cleanSearch, noticeText, stationRows } from "./_devices.tsx";

/** The station list, mounted at `/admin/devices`. */
export function adminDeviceRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  app.get("/", async (c) => {
    const t = c.var.t;
    const q = cleanSearch(c.req.query("q"));
    let rows: StationRow[] | null;
    try {
      rows = stationRows(t, await listDeviceViews(deps, c.var.user, { type: "station" }), q);
    } catch (e) {
      deps.log.log("error", "station list failed", { error: String(e) });
      rows = null;
    }
    return appPage(
      c,
      deps,
      t("devices.devices_page.title"),
      <StationList t={t} q={q} stations={rows} notice={noticeText(t, c.req.query("done"))} />,
    );
  });

  return app;
}
