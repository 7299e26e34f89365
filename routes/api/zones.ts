/**
 * Zones API (spec 001 section 7): `/api/zones*`, admin only, except that a customer or a
 * tenant may read the zone of their stations or units (`GET /api/zones/{id}`, tenant pricing);
 * any other zone answers 404 to them, as if it did not exist.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "../_deps.ts";
import { badJson, badRequest, idParam, readJson } from "../_http.ts";
import { requireApi } from "../_session.ts";
import {
  addZone,
  editZone,
  findZone,
  parseZone,
  removeZone,
  ZONE_NOT_FOUND,
  zonePriceHistory,
  zoneStations,
  zoneView,
  zoneViews,
  zoneVisibleTo,
} from "../../services/zones.ts";

const notFound = (c: Context<AppEnv>) => c.json({ message: c.var.t(ZONE_NOT_FOUND) }, 404);

/** Routes under /api/zones. */
export function zoneApiRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("/api/zones", requireApi("admin"));
  const adminOnly = requireApi("admin");
  const signedIn = requireApi("admin", "customer", "user");
  app.use(
    "/api/zones/*",
    (c, next) =>
      c.req.method === "GET" && /^\/api\/zones\/[^/]+$/.test(c.req.path)
        ? signedIn(c, next)
        : adminOnly(c, next),
  );

  app.get("/api/zones", async (c) => c.json(await zoneViews(deps)));
  app.post("/api/zones", async (c) => {
    const body = await readJson(c);
    if (body === undefined) return badJson(c);
    const parsed = parseZone(body);
    if (!parsed.ok) {
      return badRequest(c, parsed.errors, c.var.t("zones.zone_form.errors.save_failed"));
    }
    const zone = await addZone(deps, parsed.zone);
    return c.json({ ...zone, station_count: 0 }, 201);
  });
  app.get("/api/zones/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null || !await zoneVisibleTo(deps, c.var.user!, id)) return notFound(c);
    const zone = await zoneView(deps, id);
    return zone ? c.json(zone) : notFound(c);
  });
  app.put("/api/zones/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null || !await findZone(deps, id)) return notFound(c);
    const body = await readJson(c);
    if (body === undefined) return badJson(c);
    const parsed = parseZone(body);
    if (!parsed.ok) {
      return badRequest(c, parsed.errors, c.var.t("zones.zone_form.errors.save_failed"));
    }
    if (!await editZone(deps, id, parsed.zone)) return notFound(c);
    return c.json(await zoneView(deps, id));
  });
  app.get("/api/zones/:id/stations", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null || !await findZone(deps, id)) return notFound(c);
    return c.json(await zoneStations(deps, c.var.user!, id));
  });
  app.get("/api/zones/:id/history", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null || !await findZone(deps, id)) return notFound(c);
    return c.json(await zonePriceHistory(deps, id));
  });
  app.delete("/api/zones/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c);
    await removeZone(deps, id);
    return c.json({ message: "Zone deleted successfully" });
  });
  return app;
}
