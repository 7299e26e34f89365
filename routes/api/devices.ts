/**
 * Devices API (spec 000 section 7): `/api/devices*` for stations and sensors, stats,
 * statuses, and the customer and tenant assignment calls. Reads are for anyone signed in
 * and limited to what the caller may see (404 for what is not theirs); changes are admin
 * only. A 400 answers `{message, errors}`: the first error as the message, and translated
 * errors by form field.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { z } from "zod";
import type { Deps, UserEnv } from "../_deps.ts";
import { badJson, idParam, readJson, validate } from "../_http.ts";
import { apiPageSchema, encodeCursor } from "../../core/paging.ts";
import { requireApiRole } from "../_session.ts";
import type { FieldErrors } from "../../core/schemas.ts";
import {
  assignCustomerSchema,
  assignTenantSchema,
  DEVICE_MESSAGE_PARAMS,
  devicesQuerySchema,
  removeTenantSchema,
  sensorBodySchema,
  stationBodySchema,
  statusesSchema,
  validateDeviceBody,
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

/** A 400 with translated field errors; the message is the first error (or `message`). */
function invalid(c: Ctx, errors: FieldErrors, message?: string) {
  const t = (key: string) => c.var.t(key, DEVICE_MESSAGE_PARAMS);
  const translated = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, t(v)]));
  const first = Object.values(translated)[0];
  return c.json({
    message: message ? t(message) : first ?? t("validation.failed"),
    errors: translated,
  }, 400);
}

const notFound = (c: Ctx, key: string) => c.json({ message: c.var.t(key) }, 404);

/** Reads and validates a JSON body; answers the data or the 400 response. */
async function body<S extends z.ZodType>(
  c: Ctx,
  schema: S,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; res: Response }> {
  const raw = await readJson(c);
  if (raw === undefined) return { ok: false, res: badJson(c) };
  const parsed = validateDeviceBody(schema, raw);
  return parsed.ok ? parsed : { ok: false, res: invalid(c, parsed.errors) };
}

/** The answer of a change that went through: its message and how many devices changed. */
const done = (c: Ctx, count: number, messageKey: string) =>
  c.json({ message: c.var.t(messageKey), updated: count });

/** Routes under /api/devices, mounted at that prefix. */
export function deviceApiRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  const admin = requireApiRole("admin");
  app.use(requireApiRole());

  app.get("/", async (c) => {
    const parsed = validateDeviceBody(devicesQuerySchema, c.req.query());
    if (!parsed.ok) return invalid(c, parsed.errors);
    const paged = validate(apiPageSchema, c.req.query());
    if (!paged.ok) return invalid(c, paged.errors);
    const { limit, cursor } = paged.data;
    if (limit === undefined && cursor === undefined) {
      return c.json({ devices: await listDeviceViews(deps, c.var.user, parsed.data) });
    }
    // `limit` and `cursor`: a page in id order and the cursor after it (null at the end).
    const page = await pageDeviceViews(deps, c.var.user, parsed.data, limit, cursor ?? null);
    const last = page.devices.at(-1);
    return c.json({
      devices: page.devices,
      next_cursor: page.more && last ? encodeCursor(last.id) : null,
    });
  });
  // The admin's counts come from the counters kept with the writes; others' from their scope.
  app.get("/stats", async (c) =>
    c.json(
      c.var.user.role === "admin" ? await fleetStats(deps) : await deviceStats(deps, c.var.user),
    ));
  app.post("/statuses", async (c) => {
    const b = await body(c, statusesSchema);
    if (!b.ok) return b.res;
    return c.json({ statuses: await deviceStatuses(deps, c.var.user, b.data.deviceIds) });
  });

  app.post("/assign-customer", admin, async (c) => {
    const b = await body(c, assignCustomerSchema);
    if (!b.ok) return b.res;
    const count = await assignCustomer(deps, b.data.customer_id, b.data.station_ids);
    return done(c, count, "devices.api.customer_assigned");
  });
  app.post("/assign-tenant", admin, async (c) => {
    const b = await body(c, assignTenantSchema);
    if (!b.ok) return b.res;
    const count = await assignTenant(deps, b.data.tenant_id, b.data.sensor_ids, b.data);
    return done(c, count, "devices.api.tenant_assigned");
  });
  app.post("/remove-customer/:id", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    return done(c, await removeCustomer(deps, id), "devices.api.customer_removed");
  });
  app.post("/remove-tenant/:id", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, SENSOR_NOT_FOUND);
    // The spec's call has no body; a move-out may say when, the reading and the final bill.
    const raw = c.req.header("content-length") === "0" || c.req.raw.body === null
      ? {}
      : await readJson(c);
    if (raw === undefined) return badJson(c);
    const parsed = validateDeviceBody(removeTenantSchema, raw);
    if (!parsed.ok) return invalid(c, parsed.errors);
    const count = await removeTenant(deps, id, parsed.data, String(c.var.user.id));
    return done(c, count, "devices.api.tenant_removed");
  });
  app.get("/:id/tenancies", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, SENSOR_NOT_FOUND);
    return c.json({ tenancies: await listTenancies(deps, id) });
  });

  app.post("/", admin, async (c) => {
    const b = await body(c, stationBodySchema("create"));
    if (!b.ok) return b.res;
    return c.json(await createStation(deps, c.var.user, b.data), 201);
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
  app.put("/:id", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    const b = await body(c, stationBodySchema("update"));
    if (!b.ok) return b.res;
    return c.json(await updateStation(deps, c.var.user, id, b.data));
  });
  app.delete("/:id", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    return done(c, await deleteStation(deps, id), "devices.api.station_deleted");
  });

  app.get("/:id/sensors", async (c) => {
    const id = idParam(c.req.param("id"));
    const sensors = id === null ? null : await listSensorViews(deps, c.var.user, id);
    return sensors ? c.json({ sensors }) : notFound(c, STATION_NOT_FOUND);
  });
  app.post("/:id/sensors", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    if (id === null) return notFound(c, STATION_NOT_FOUND);
    const b = await body(c, sensorBodySchema("create"));
    if (!b.ok) return b.res;
    return c.json(await createSensor(deps, c.var.user, id, b.data), 201);
  });
  app.get("/:id/sensors/:sensorId", async (c) => {
    const id = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    const view = id === null || sensorId === null
      ? null
      : await getSensorView(deps, c.var.user, id, sensorId);
    return view ? c.json(view) : notFound(c, SENSOR_NOT_FOUND);
  });
  app.put("/:id/sensors/:sensorId", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    if (id === null || sensorId === null) return notFound(c, SENSOR_NOT_FOUND);
    const b = await body(c, sensorBodySchema("update"));
    if (!b.ok) return b.res;
    return c.json(await updateSensor(deps, c.var.user, id, sensorId, b.data));
  });
  app.delete("/:id/sensors/:sensorId", admin, async (c) => {
    const id = idParam(c.req.param("id"));
    const sensorId = idParam(c.req.param("sensorId"));
    if (id === null || sensorId === null) return notFound(c, SENSOR_NOT_FOUND);
    return done(c, await deleteSensor(deps, id, sensorId), "devices.api.sensor_deleted");
  });
  return app;
}
