/**
 * Reading devices as a caller may see them (see `scope.ts`): lists, one device, a station's
 * sensors, counts and own statuses.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { type DeviceStats, type DeviceView, type StoredDevice } from "../../core/devices.ts";
import {
  findBySerial,
  getDevice,
  getDevices,
  getStationSensor,
  sensorIdsOf,
} from "../../db/devices.ts";
import { readStatuses, type StatusNow } from "../../db/device_status.ts";
import { accessChecker, type Scope, scopeOf } from "./access.ts";
import { serve } from "./scope.ts";

/** Filters of GET /api/devices. */
export interface DeviceFilter {
  type?: "station" | "sensor";
  customer_id?: number | null;
  tenant_id?: number | null;
}

/** Devices by id of a scope (full and basic). */
function visible(scope: Scope): Map<number, StoredDevice> {
  return new Map([...scope.basic, ...scope.full]);
}

/**
 * The devices `viewer` may see, filtered by type, customer (stations of that customer and
 * their sensors) and tenant (that tenant's sensors and their stations); oldest first.
 */
export async function listDeviceViews(
  deps: Deps,
  viewer: User,
  filter: DeviceFilter = {},
): Promise<DeviceView[]> {
  const scope = await scopeOf(deps, viewer);
  const all = visible(scope);
  const stationOf = (d: StoredDevice) =>
    d.type === "station" ? d : d.parent_id === null ? undefined : all.get(d.parent_id);
  const tenantStations = new Set<number>();
  if (filter.tenant_id) {
    for (const d of all.values()) {
      if (d.type === "sensor" && d.tenant_id === filter.tenant_id && d.parent_id !== null) {
        tenantStations.add(d.parent_id);
      }
    }
  }
  const chosen = [...all.values()]
    .filter((d) => !filter.type || d.type === filter.type)
    .filter((d) => !filter.customer_id || stationOf(d)?.customer_id === filter.customer_id)
    .filter((d) =>
      !filter.tenant_id ||
      (d.type === "sensor" ? d.tenant_id === filter.tenant_id : tenantStations.has(d.id))
    )
    .sort((a, b) => a.id - b.id);
  const fleet = viewer.role === "admin" ? scope.full : null;
  return serve(deps, viewer, chosen, new Set(scope.basic.keys()), fleet);
}

/** One device (station or sensor) as `viewer` may see it, or null (missing or not theirs). */
export async function getDeviceView(
  deps: Deps,
  viewer: User,
  id: number,
): Promise<DeviceView | null> {
  const seen = await visibleDevice(deps, viewer, id);
  if (!seen) return null;
  const basic = seen.access === "basic" ? [seen.d.id] : [];
  return (await serve(deps, viewer, [seen.d], new Set(basic)))[0];
}

/** Device `id` and how much of it `viewer` may see, or null (missing or not theirs). */
async function visibleDevice(deps: Deps, viewer: User, id: number) {
  const d = await getDevice(deps.kv, id);
  const access = d ? await accessChecker(deps, viewer)(d) : null;
  return d && access ? { d, access } : null;
}

/** A station's sensors as `viewer` may see them; null when the station is not theirs. */
export async function listSensorViews(
  deps: Deps,
  viewer: User,
  stationId: number,
): Promise<DeviceView[] | null> {
  const station = await getDevice(deps.kv, stationId);
  const may = accessChecker(deps, viewer);
  if (station?.type !== "station" || !(await may(station))) return null;
  const sensors: StoredDevice[] = [];
  for (const s of await getDevices(deps.kv, await sensorIdsOf(deps.kv, stationId))) {
    if ((await may(s)) === "full") sensors.push(s);
  }
  return serve(deps, viewer, sensors.sort((a, b) => a.id - b.id));
}

/** One sensor of a station as `viewer` may see it, or null. */
export async function getSensorView(
  deps: Deps,
  viewer: User,
  stationId: number,
  sensorId: number,
): Promise<DeviceView | null> {
  const d = await getStationSensor(deps.kv, stationId, sensorId);
  if (!d || (await accessChecker(deps, viewer)(d)) !== "full") return null;
  return (await serve(deps, viewer, [d]))[0];
}

/** Counts of the devices `viewer` may see (onlineCount: devices whose own status is online). */
export async function deviceStats(deps: Deps, viewer: User): Promise<DeviceStats> {
  const scope = await scopeOf(deps, viewer);
  const all = [...visible(scope).values()];
  const status = await readStatuses(deps.kv, all.map((d) => d.id));
  const sensors = [...scope.full.values()].filter((d) => d.type === "sensor");
  const stations = all.filter((d) => d.type === "station");
  const unitCount = viewer.role === "user"
    ? sensors.filter((s) => s.config.sensor?.unit_id).length
    : stations.reduce((n, s) => n + (s.config.station?.units.length ?? 0), 0);
  return {
    stationCount: stations.length,
    sensorCount: sensors.length,
    onlineCount: all.filter((d) => status.get(d.id)?.status === "online").length,
    unitCount,
  };
}

/**
 * Own status and last_seen of devices named by id (numbers) or serial number (strings; a
 * string of digits that is no serial number is tried as an id), keyed by serial number;
 * devices the caller may not see are left out.
 */
export async function deviceStatuses(
  deps: Deps,
  viewer: User,
  refs: readonly (number | string)[],
): Promise<Record<string, StatusNow>> {
  const may = accessChecker(deps, viewer);
  const chosen = new Map<number, StoredDevice>();
  for (const ref of new Set(refs)) {
    let d = typeof ref === "number"
      ? await getDevice(deps.kv, ref)
      : await findBySerial(deps.kv, ref);
    if (!d && typeof ref === "string" && /^\d{1,15}$/.test(ref)) {
      d = await getDevice(deps.kv, Number(ref));
    }
    if (d && (await may(d))) chosen.set(d.id, d);
  }
  const status = await readStatuses(deps.kv, [...chosen.keys()]);
  const out: Record<string, StatusNow> = {};
  for (const d of chosen.values()) out[d.serial_number] = status.get(d.id)!;
  return out;
}

/** Own status and last_seen of one device `viewer` may see, or null. */
export async function deviceStatusView(
  deps: Deps,
  viewer: User,
  id: number,
): Promise<StatusNow | null> {
  if (!(await visibleDevice(deps, viewer, id))) return null;
  return (await readStatuses(deps.kv, [id])).get(id)!;
}
