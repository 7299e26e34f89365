/**
 * The admin's station list (spec 000 section 2): `/admin/devices?q=&sort=&dir=&page=&size=`,
 * searched by name, city, serial number, customer and station id, sorted by a visible
 * column, 25 stations a page (50 or 100 on request); bad values fall back to the defaults. The other device pages are `admin_station_form.tsx`,
 * `admin_station_data.tsx`, `admin_sensor_form.tsx` and `admin_sensor_data.tsx`; data comes
 * from `services/devices/`.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { requireRole } from "./_session.ts";
import { renderPage } from "./_page.tsx";
import { pageStationViews, STATION_SORTS, type StationSort } from "../services/devices/mod.ts";
import { StationList, type StationRow } from "../components/devices/StationList.tsx";
import type { Paging } from "../components/kit/mod.ts";
import { listHref, listQuerySchema } from "../core/paging.ts";
import { flashQuery, queryInput, queryOf } from "./_validate.ts";
import { noticeText, stationRows } from "./_devices.tsx";

/** The station list, mounted at `/admin/devices`. */
export function adminDeviceRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireRole("admin"));

  app.get("/", queryInput(flashQuery), async (c) => {
    const t = c.var.t;
    const query = queryOf(c, listQuerySchema(STATION_SORTS));
    const q = query.q;
    let rows: StationRow[] | null;
    let paging: Paging<StationSort> | undefined;
    try {
      const page = await pageStationViews(deps, c.var.user, query);
      rows = stationRows(t, page.rows, "");
      paging = {
        query: { ...query, page: page.page },
        page,
        href: (to) => listHref("/admin/devices", to, { sort: "id" }),
      };
    } catch (e) {
      deps.log.log("error", "station list failed", { error: String(e) });
      rows = null;
    }
    return renderPage(c, deps, t("devices.devices_page.title"), StationList, {
      q,
      stations: rows,
      paging,
      notice: noticeText(t, c.req.valid("query").done),
    });
  });

  return app;
}
