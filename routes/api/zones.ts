/**
 * Zones API (spec 001 section 7): `/api/zones*`, admin only, except that a customer or a
 * tenant may read the zone of their stations or units (`GET /api/zones/{id}`, tenant pricing);
 * any other zone answers 404 to them, as if it did not exist.
 */
import { acting } from "../_audit.ts";
import { Hono } from "hono";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Deps, UserEnv } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { jsonInput } from "../_validate.ts";
import { zoneBodyFromForm, zoneFormSchema } from "../../core/zone.ts";
import { requireApiRole } from "../_session.ts";
import {
  addZone,
  editZone,
  findZone,
  removeZone,
  type StoredZone,
  ZONE_NOT_FOUND,
  zonePriceHistory,
  zonePriceVersions,
  zoneStations,
  zoneView,
  zoneViews,
  zoneVisibleTo,
} from "../../services/zones.ts";

const notFound = <E extends AppEnv>(c: Context<E>) =>
  c.json({ message: c.var.t(ZONE_NOT_FOUND) }, 404);

/** The environment of handlers behind the zone loader: the zone is `c.var.zone`. */
type ZoneEnv = UserEnv & { Variables: { zone: StoredZone } };

/** Routes under /api/zones, mounted at that prefix. */
export function zoneApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const adminOnly = requireApiRole("admin");
  const signedIn = requireApiRole("admin", "customer", "user");
  // One zone (GET /api/zones/{id}) is for anyone signed in; everything else is the admin's.
  app.use((c, next) =>
    c.req.method === "GET" && /^\/api\/zones\/[^/]+$/.test(c.req.path)
      ? signedIn(c, next)
      : adminOnly(c, next)
  );

  /** Loads the zone the path's `:id` names into `c.var.zone`; 404 when there is none. */
  const loadZone: MiddlewareHandler<ZoneEnv> = async (c, next) => {
    const id = idParam(c.req.param("id"));
    const zone = id === null ? null : await findZone(deps, id);
    if (!zone) return notFound(c);
    c.set("zone", zone);
    await next();
  };

  /** A zone body: field errors by path (`levels.1.price`) under the save-failed message. */
  const zoneInput = jsonInput(zoneFormSchema, { message: "zones.zone_form.errors.save_failed" });

  app.get("/", async (c) => c.json({ zones: await zoneViews(deps) }));
  app.post("/", zoneInput, async (c) => {
    const zone = await addZone(acting(c, deps), zoneBodyFromForm(c.req.valid("json")));
    return c.json({ ...zone, station_count: 0 }, 201);
  });
  app.get("/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null || !await zoneVisibleTo(deps, c.var.user, id)) return notFound(c);
    const zone = await zoneView(deps, id);
    return zone ? c.json(zone) : notFound(c);
  });
  app.put("/:id", loadZone, zoneInput, async (c) => {
    const id = c.var.zone.id;
    const form = c.req.valid("json");
    if (!await editZone(acting(c, deps), id, zoneBodyFromForm(form), form.effective_from)) {
      return notFound(c);
    }
    return c.json(await zoneView(deps, id));
  });
  app.get("/:id/stations", loadZone, async (c) => {
    return c.json({ stations: await zoneStations(deps, c.var.user, c.var.zone.id) });
  });
  app.get("/:id/history", loadZone, async (c) => {
    return c.json({ history: await zonePriceHistory(deps, c.var.zone.id) });
  });
  app.get("/:id/versions", loadZone, async (c) => {
    const versions = await zonePriceVersions(deps, c.var.zone.id);
    return c.json({
      versions: versions.map((v) => ({
        ...v.zone,
        id: c.var.zone.id,
        applies_from: v.applies_from,
        recorded_at: v.recorded_at,
        in_force: v.in_force,
      })),
    });
  });
  app.delete("/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c);
    await removeZone(acting(c, deps), id);
    return c.json({ message: "Zone deleted successfully" });
  });
  return app;
}
