/**
 * Customers of stations and tenants of sensors: assigning and removing them (admin), and
 * applying the assignments an account got from its access code.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { getDevice, type StoredDevice, updateDevice } from "../../db/devices.ts";
import { getUser } from "../../db/users.ts";
import { DV, fieldError, isTenant, SENSOR_NOT_FOUND, STATION_NOT_FOUND } from "./_changes.ts";
import { notFound } from "../refusal.ts";

/** Sets the customer of stations (null removes it); answers how many changed. */
async function setCustomer(deps: Deps, stationIds: readonly number[], customerId: number | null) {
  let n = 0;
  for (const id of stationIds) {
    const res = await updateDevice(
      deps.kv,
      id,
      (cur) =>
        cur.type === "station"
          ? { ...cur, customer_id: customerId, updated_at: deps.now() }
          : { reason: "not_found" },
    );
    if (res.ok) n++;
  }
  return n;
}

/** Sets the tenant of sensors (null removes it); answers how many changed. */
async function setTenant(deps: Deps, sensorIds: readonly number[], tenantId: number | null) {
  let n = 0;
  for (const id of sensorIds) {
    const res = await updateDevice(deps.kv, id, (cur) =>
      cur.type === "sensor"
        ? {
          ...cur,
          tenant_id: tenantId,
          config: { ...cur.config, sensor: { ...cur.config.sensor!, tenant_id: tenantId } },
          updated_at: deps.now(),
        }
        : { reason: "not_found" });
    if (res.ok) n++;
  }
  return n;
}

/** Checks that every id is a device of `type`; answers the missing ones. */
async function missingOf(deps: Deps, ids: readonly number[], type: StoredDevice["type"]) {
  const out: number[] = [];
  for (const id of ids) if ((await getDevice(deps.kv, id))?.type !== type) out.push(id);
  return out;
}

/** POST /api/devices/assign-customer: the customer becomes the stations' customer. */
export async function assignCustomer(
  deps: Deps,
  customerId: number,
  stationIds: readonly number[],
): Promise<number> {
  if ((await getUser(deps.kv, customerId))?.role !== "customer") {
    throw fieldError("customer_id", `${DV}customer_invalid`);
  }
  if ((await missingOf(deps, stationIds, "station")).length) {
    throw fieldError("station_ids", `${DV}stations_invalid`);
  }
  return await setCustomer(deps, [...new Set(stationIds)], customerId);
}

/** POST /api/devices/assign-tenant: the tenant becomes the sensors' (and units') tenant. */
export async function assignTenant(
  deps: Deps,
  tenantId: number,
  sensorIds: readonly number[],
): Promise<number> {
  if (!(await isTenant(deps, tenantId))) {
    throw fieldError("tenant_id", `${DV}tenant_invalid`);
  }
  if ((await missingOf(deps, sensorIds, "sensor")).length) {
    throw fieldError("sensor_ids", `${DV}sensors_invalid`);
  }
  return await setTenant(deps, [...new Set(sensorIds)], tenantId);
}

/** POST /api/devices/remove-customer/{id}: the station has no customer any more. */
export async function removeCustomer(deps: Deps, stationId: number): Promise<number> {
  if ((await getDevice(deps.kv, stationId))?.type !== "station") {
    throw notFound(STATION_NOT_FOUND);
  }
  return await setCustomer(deps, [stationId], null);
}

/** POST /api/devices/remove-tenant/{id}: the sensor (and its unit) has no tenant any more. */
export async function removeTenant(deps: Deps, sensorId: number): Promise<number> {
  if ((await getDevice(deps.kv, sensorId))?.type !== "sensor") {
    throw notFound(SENSOR_NOT_FOUND);
  }
  return await setTenant(deps, [sensorId], null);
}

/**
 * Applies the assignments an account got from its access code: a customer becomes the
 * customer of the listed stations; a tenant becomes the tenant of each listed
 * `sensorId:unitId` whose sensor still measures that unit. Entries that no longer match a
 * device are skipped and answered. Safe to run again.
 */
export async function applyRegistrationAssignments(
  deps: Deps,
  user: User,
): Promise<{ applied: number; skipped: string[] }> {
  const skipped: string[] = [];
  let applied = 0;
  if (user.role === "customer") {
    for (const id of user.assignments.stations) {
      if ((await setCustomer(deps, [id], user.id)) === 1) applied++;
      else skipped.push(String(id));
    }
  } else if (user.role === "user") {
    for (const sel of user.assignments.units) {
      const [sensorPart, unitId] = sel.split(":");
      const sensor = await getDevice(deps.kv, Number(sensorPart));
      if (sensor?.type === "sensor" && sensor.config.sensor?.unit_id === unitId) {
        if ((await setTenant(deps, [sensor.id], user.id)) === 1) {
          applied++;
          continue;
        }
      }
      skipped.push(sel);
    }
  }
  return { applied, skipped };
}
