/**
 * What a caller may see of stations and sensors.
 *
 * - admin: every device, with `config.mqtt` (never the password).
 * - customer: their stations (customer_id = self) and those stations' sensors.
 * - tenant (role user): their sensors (tenant_id = self), and the basic data of those
 *   sensors' stations (name, ids, location, status, their own units; no SSRs, customer or
 *   MQTT settings).
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import {
  getDevice,
  getDevices,
  sensorIdsOf,
  sensorIdsOfTenant,
  stationIdsOfCustomer,
} from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { fleetDevices } from "./fleet_devices.ts";

/** The devices a caller may see, loaded. */
export interface Scope {
  viewer: User;
  /** Every device the caller may see in full (for a tenant: their sensors). */
  full: Map<number, StoredDevice>;
  /** Tenants: the stations of their sensors, seen as basic data. */
  basic: Map<number, StoredDevice>;
}

/** Loads what `viewer` may see. */
export async function scopeOf(deps: Deps, viewer: User): Promise<Scope> {
  const full = new Map<number, StoredDevice>();
  const basic = new Map<number, StoredDevice>();
  const add = (into: Map<number, StoredDevice>, list: StoredDevice[]) => {
    for (const d of list) into.set(d.id, d);
  };
  if (viewer.role === "admin") {
    add(full, [...await fleetDevices(deps.kv)]);
  } else if (viewer.role === "customer") {
    const stations = (await getDevices(deps.kv, await stationIdsOfCustomer(deps.kv, viewer.id)))
      .filter((d) => d.type === "station" && d.customer_id === viewer.id);
    add(full, stations);
    for (const s of stations) {
      add(full, await getDevices(deps.kv, await sensorIdsOf(deps.kv, s.id)));
    }
  } else {
    const sensors = (await getDevices(deps.kv, await sensorIdsOfTenant(deps.kv, viewer.id)))
      .filter((d) => d.type === "sensor" && d.tenant_id === viewer.id);
    add(full, sensors);
    const parents = [...new Set(sensors.map((s) => s.parent_id).filter((p) => p !== null))];
    add(basic, await getDevices(deps.kv, parents as number[]));
  }
  return { viewer, full, basic };
}

/** How a caller sees one device: in full, as basic station data, or not at all. */
type Access = "full" | "basic" | null;

/**
 * A checker of single devices for `viewer`, without loading everything they may see
 * (it remembers the stations and a tenant's sensors it read).
 */
export function accessChecker(deps: Deps, viewer: User): (d: StoredDevice) => Promise<Access> {
  const stations = new Map<number, StoredDevice | null>();
  let tenantStations: Set<number> | null = null;
  const stationOf = async (id: number) => {
    if (!stations.has(id)) {
      const d = await getDevice(deps.kv, id);
      stations.set(id, d?.type === "station" ? d : null);
    }
    return stations.get(id)!;
  };
  return async (d) => {
    if (viewer.role === "admin") return "full";
    if (viewer.role === "customer") {
      const station = d.type === "station"
        ? d
        : d.parent_id === null
        ? null
        : await stationOf(d.parent_id);
      return station?.customer_id === viewer.id ? "full" : null;
    }
    if (d.type === "sensor") return d.tenant_id === viewer.id ? "full" : null;
    if (!tenantStations) {
      const own = await getDevices(deps.kv, await sensorIdsOfTenant(deps.kv, viewer.id));
      tenantStations = new Set(
        own.filter((s) => s.tenant_id === viewer.id && s.parent_id !== null)
          .map((s) => s.parent_id!),
      );
    }
    return tenantStations.has(d.id) ? "basic" : null;
  };
}
