/**
 * Admin pricing zone pages (spec 001 section 2): the zone list (`/admin/pricing`), the zone
 * detail (`/admin/zones/{id}`) with its delete (`/admin/zones/{id}/delete`), and the zone
 * form (`/admin/zones/create`, `/admin/zones/new`, `/admin/zones/{id}/edit`).
 *
 * Every form works without JavaScript; the ZoneLevels island edits the pricing levels in
 * place. Data comes from `services/zones.ts`; the /admin guard is `routes/admin.tsx`'s.
 */
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import { z } from "zod";
import type { Deps, UserEnv } from "./_deps.ts";
import { idParam, readForm } from "./_http.ts";
import { confirmPage, renderPage } from "./_page.tsx";
import { attempt, Refusal } from "./_refusal.tsx";
import {
  removeZone,
  zonePriceHistory,
  zonePriceVersions,
  zoneStationsPage,
  zoneView,
  zoneViews,
} from "../services/zones.ts";
import { ZoneList } from "../components/zones/ZoneList.tsx";
import { listHref, listQuerySchema } from "../core/paging.ts";
import { queryOf, textQuery } from "./_validate.ts";
import { STATION_SORTS } from "../services/devices/mod.ts";
import type { Paging } from "../components/kit/mod.ts";
import { ZoneDetail } from "../components/zones/ZoneDetail.tsx";
import { clockOf } from "../services/platform/clock.ts";
import { zoneFormRoutes, zoneNotFound } from "./admin_zone_form.tsx";

const NOTICES = {
  created: "zones.zone_form.success_create",
  updated: "zones.zone_form.success_update",
  deleted: "zones.zone_list.deleted",
} as const;

/** The zone list's notice: one of {@link NOTICES}, any other `done` none. */
const listQuery = z.object({
  done: z.enum(Object.keys(NOTICES) as (keyof typeof NOTICES)[]).optional().catch(undefined),
});

/** Routes of the zone pages. */
export function adminZoneRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  app.get("/pricing", async (c) => {
    const t = c.var.t;
    const zones = await zoneViews(deps).catch((e) => {
      deps.log.log("error", "zone list failed", { error: String(e) });
      return null;
    });
    const flag = queryOf(c, listQuery).done;
    const done = flag ? NOTICES[flag] : undefined;
    return renderPage(c, deps, t("zones.zone_list.title"), ZoneList, {
      zones,
      notice: done ? t(done) : undefined,
    });
  });

  // The form routes come first: "create" and "new" are not ids.
  app.route("/", zoneFormRoutes(deps));

  app.get("/zones/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    const zone = id === null ? null : await zoneView(deps, id);
    if (!zone) return zoneNotFound(c, deps);
    const query = queryOf(c, listQuerySchema(STATION_SORTS));
    const page = await zoneStationsPage(deps, c.var.user, zone.id, query).catch(() => null);
    const paging: Paging | undefined = page
      ? {
        query: { ...query, page: page.page },
        page,
        href: (to) => listHref(`/admin/zones/${zone.id}`, to, { sort: "id" }),
      }
      : undefined;
    const history = await zonePriceHistory(deps, zone.id).catch(() => null);
    const versions = await zonePriceVersions(deps, zone.id).catch(() => null);
    return renderPage(c, deps, zone.name, ZoneDetail, {
      zone,
      stations: page?.rows ?? null,
      paging,
      history,
      versions,
      blocked: queryOf(c, textQuery).delete === "blocked" && zone.station_count > 0,
      offsetMinutes: clockOf(deps).offsetMinutes(),
    });
  });

  app.post("/zones/:id/delete", async (c) => {
    const t = c.var.t;
    const id = idParam(c.req.param("id"));
    const zone = id === null ? null : await zoneView(deps, id);
    if (!zone) return zoneNotFound(c, deps);
    const base = `/admin/zones/${zone.id}`;
    if (zone.station_count > 0) return c.redirect(`${base}?delete=blocked`, 303);
    const form = await readForm(c);
    if (form.confirm !== "yes") {
      return confirmPage(c, deps, {
        title: t("zones.zone_detail.delete_dialog.title"),
        message: `${t("zones.zone_detail.delete_dialog.message", { name: zone.name })} ${
          t("zones.zone_detail.delete_dialog.warning")
        }`,
        action: `${base}/delete`,
        fields: {},
        cancelHref: base,
      });
    }
    const refused = await attempt(removeZone(acting(c, deps), zone.id));
    if (refused instanceof Refusal) {
      return refused.kind === "conflict"
        ? c.redirect(`${base}?delete=blocked`, 303)
        : zoneNotFound(c, deps);
    }
    return c.redirect("/admin/pricing?done=deleted", 303);
  });
  return app;
}
