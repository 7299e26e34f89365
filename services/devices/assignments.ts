/**
 * Customers of stations and tenants of sensors: assigning and removing them (admin), and
 * applying the assignments an account got from its access code. A tenant's move in or out is a
 * tenancy (tenancies.ts).
 */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { getDevice, getDevices, updateDevice } from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { type Handover, moveTenantIn, moveTenantOut } from "./tenancies.ts";
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
      undefined,
      auditStamp(deps, "device.update", `device:${id}`),
    );
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

/**
 * POST /api/devices/assign-tenant: the tenant moves into the sensors' units at
 * `effective_from` (now by default; tenancies.ts), with the handover reading when given.
 */
export async function assignTenant(
  deps: Deps,
  tenantId: number,
  sensorIds: readonly number[],
  handover: Handover = {},
): Promise<number> {
  if (!(await isTenant(deps, tenantId))) {
    throw fieldError("tenant_id", `${DV}tenant_invalid`);
  }
  if ((await missingOf(deps, sensorIds, "sensor")).length) {
    throw fieldError("sensor_ids", `${DV}sensors_invalid`);
  }
  const sensors = await getDevices(deps.kv, [...new Set(sensorIds)]);
  return await moveTenantIn(deps, tenantId, sensors, handover);
}

/** POST /api/devices/remove-customer/{id}: the station has no customer any more. */
export async function removeCustomer(deps: Deps, stationId: number): Promise<number> {
  if ((await getDevice(deps.kv, stationId))?.type !== "station") {
    throw notFound(STATION_NOT_FOUND);
  }
  return await setCustomer(deps, [stationId], null);
}

/**
 * POST /api/devices/remove-tenant/{id}: the tenant of the sensor's unit moves out at
 * `effective_from` (now by default), with the handover reading and, when asked, the final bill.
 */
export async function removeTenant(
  deps: Deps,
  sensorId: number,
  handover: Handover & { final_bill?: boolean } = {},
  author: string | null = null,
): Promise<number> {
  if ((await getDevice(deps.kv, sensorId))?.type !== "sensor") {
    throw notFound(SENSOR_NOT_FOUND);
  }
  return await moveTenantOut(deps, sensorId, handover, author);
}

/**
 * Applies the assignments an account got from its access code: a customer becomes the
 * customer of the listed stations; a tenant moves into each listed `sensorId:unitId` whose
 * sensor still measures that unit, now or at the code's move-in date. Entries that no longer
 * match a device are skipped and answered. Safe to run again.
 */
export async function applyRegistrationAssignments(
  deps: Deps,
  user: User,
  moveIn: string | null = null,
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
        try {
          await moveTenantIn(deps, user.id, [sensor], { effective_from: moveIn ?? null }, {
            allowFuture: true,
          });
          applied++;
          continue;
        } catch {
          // A unit whose tenancies forbid the move-in (a finalized bill) is skipped and said.
        }
      }
      skipped.push(sel);
    }
  }
  return { applied, skipped };
}
