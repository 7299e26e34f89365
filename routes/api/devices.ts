/**
 * Devices API (spec 000 section 7): `/api/devices*` for stations and sensors, stats,
 * statuses, and the customer and tenant assignment calls. Reads are for anyone signed in
 * and limited to what the caller may see (404 for what is not theirs); changes are admin
 * only. A 400 answers `{message, errors}`: the first error as the message, and translated
 * errors by form field.
 */
import { taggedJson } from "../_page_tag.ts";
import { deviceStatsTag } from "../../services/page_tags.ts";
import { acting } from "../_audit.ts";
import { Hono } from "hono";
import type { Context } from "hono";
import type { z } from "zod";
import type { Deps, UserEnv } from "../_deps.ts";
import { idParam } from "../_http.ts";
import { jsonInput, queryInput, queryOf, type Rules } from "../_validate.ts";
import { apiPageSchema, encodeCursor } from "../../core/paging.ts";
import { requireApiRole } from "../_session.ts";
import { DEVICE_RULES } from "../_devices.tsx";
import {
  assignCustomerSchema,
  assignTenantSchema,
  devicesQuerySchema,
  removeTenantSchema,
  sensorBodySchema,
  stationBodySchema,
  statusesSchema,
} from "../../core/device_rules.ts";
import {
  assignCustomer,
  assignTenant,
  createSensor,
  createStation,
  deleteSensor,
  deleteStation,
  DEVICE_NOT_FOUND,
  deviceStats,
  deviceStatuses,
  deviceStatusView,
  fleetStats,
  getDeviceView,
  getSensorView,
  listDeviceViews,
  listSensorViews,
  listTenancies,
  pageDeviceViews,
  removeCustomer,
  removeTenant,
  SENSOR_NOT_FOUND,
  STATION_NOT_FOUND,
  updateSensor,
  updateStation,
} from "../../services/devices/mod.ts";

type Ctx = Context<UserEnv>;

/** How the devices API refuses input: as the forms do; null or an array as the field `_`. */
const rules: Rules = { ...DEVICE_RULES, anyJson: true };

/** A device body validated with `schema` by the one hook. */
const body = <S extends z.ZodType>(schema: S) => jsonInput(schema, rules);

const notFound = (c: Ctx, key: string) => c.json({ message: c.var.t(key) }, 404);

/** The answer of a change that went through: its message and how many devices changed. */
const done = (c: Ctx, count: number, messageKey: string) =>
  c.json({ message: c.var.t(messageKey), updated: count });

/** Routes under /api/devices, mounted at that prefix. */
export function deviceApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const admin = requireApiRole("admin");
  app.use(requireApiRole());

  app.get("/", queryInput(devicesQuerySchema, rules), async (c) => {
    const filter = c.req.valid("query");
    const { limit, cursor } = queryOf(c, apiPageSchema, rules);
    if (limit === undefined && cursor === undefined) {
      return c.json({ devices: await listDeviceViews(deps, c.var.user, filter) });
    }
    // `limit` and `cursor`: a page in id order and the cursor after it (null at the end).
    const page = await pageDeviceViews(deps, c.var.user, filter, limit, cursor ?? null);
    const last = page.devices.at(-1);
    return c.json({
      devices: page.devices,
      next_cursor: page.more && last ? encodeCursor(last.id) : null,
    });
  });
  // The admin's counts come from the counters kept with the writes; others' from their scope.
  app.get("/stats", (c) =>
    taggedJson(
      c,
      deps,
      () => deviceStatsTag(deps, c.var.user),
      async () =>
        c.var.user.role === "admin" ? await fleetStats(deps) : await deviceStats(deps, c.var.user),
    ));
  app.post("/statuses", body(statusesSchema), async (c) => {
    const { deviceIds } = c.req.valid("json");
    return c.json({ statuses: await deviceStatuses(deps, c.var.user, deviceIds) });
  });

  app.post("/assign-customer", admin, body(assignCustomerSchema), async (c) => {
    const b = c.req.valid("json");
    const count = await assignCustomer(acting(c, deps), b.customer_id, b.station_ids);
    return done(c, count, "devices.api.customer_assigned");
  });
  app.post("/assign-tenant", admin, body(assignTenantSchema), async (c) => {
    const b = c.req.valid("json");
    const count = await assignTenant(acting(c, deps), b.tenant_id, b.sensor_ids, b);
    return done(c, count, "devices.api.tenant_assigned");
  });
  app.post("/remove-customer/:id", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    return done(c, await removeCustomer(acting(c, deps), id), "devices.api.customer_removed");
  });
  // The spec's call has no body; a move-out may say when, the reading and the final bill.
  const moveOut = jsonInput(removeTenantSchema, { ...rules, optional: true });
  app.post("/remove-tenant/:id", admin, moveOut, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, SENSOR_NOT_FOUND);
    const move = c.req.valid("json");
    const count = await removeTenant(acting(c, deps), id, move, String(c.var.user.id));
    return done(c, count, "devices.api.tenant_removed");
  });
  app.get("/:id/tenancies", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, SENSOR_NOT_FOUND);
    return c.json({ tenancies: await listTenancies(deps, id) });
  });

  app.post("/", admin, body(stationBodySchema("create")), async (c) => {
    return c.json(await createStation(acting(c, deps), c.var.user, c.req.valid("json")), 201);
  });
  app.get("/:id", async (c) => {
    const id = idParam(c.req.param("id"));
    const view = id === null ? null : await getDeviceView(deps, c.var.user, id);
    return view ? c.json(view) : notFound(c, DEVICE_NOT_FOUND);
  });
  app.get("/:id/status", async (c) => {
    const id = idParam(c.req.param("id"));
    const status = id === null ? null : await deviceStatusView(deps, c.var.user, id);
    return status ? c.json(status) : notFound(c, DEVICE_NOT_FOUND);
  });
  app.put("/:id", admin, body(stationBodySchema("update")), async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    return c.json(await updateStation(acting(c, deps), c.var.user, id, c.req.valid("json")));
  });
  app.delete("/:id", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    return done(c, await deleteStation(acting(c, deps), id), "devices.api.station_deleted");
  });

  app.get("/:id/sensors", async (c) => {
    const id = idParam(c.req.param("id"));
    const sensors = id === null ? null : await listSensorViews(deps, c.var.user, id);
    return sensors ? c.json({ sensors }) : notFound(c, STATION_NOT_FOUND);
  });
  app.post("/:id/sensors", admin, body(sensorBodySchema("create")), async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    return c.json(await createSensor(acting(c, deps), c.var.user, id, c.req.valid("json")), 201);
  });
  app.get("/:id/sensors/:sensorId", async (c) => {
    const id = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    const view = id === null || sensorId === null
      ? null
      : await getSensorView(deps, c.var.user, id, sensorId);
    return view ? c.json(view) : notFound(c, SENSOR_NOT_FOUND);
  });
  app.put("/:id/sensors/:sensorId", admin, body(sensorBodySchema("update")), async (c) => {
    const id = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    if (id === null || sensorId === null) return notFound(c, SENSOR_NOT_FOUND);
    const b = c.req.valid("json");
    return c.json(await updateSensor(acting(c, deps), c.var.user, id, sensorId, b));
  });
  app.delete("/:id/sensors/:sensorId", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    if (id === null || sensorId === null) return notFound(c, SENSOR_NOT_FOUND);
    return done(c, await deleteSensor(acting(c, deps), id, sensorId), "devices.api.sensor_deleted");
  });
  return app;
}
