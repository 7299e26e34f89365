/**
 * The keys of the device families (the layout is written at the top of `devices.ts`) and what
 * a device adds to the station rows and counts: internal to `devices.ts` and `device_lists.ts`.
 */
import type {
  DeviceCountName,
  DeviceCounts,
  StationSummary,
  StoredDevice,
} from "../core/devices.ts";

export const deviceKey = (id: number) => ["devices", id];
export const serialKey = (serial: string) => ["devices_by_serial", serial.toLowerCase()];
export const mqttKey = (username: string) => ["devices_by_mqtt_user", username];
export const parentKey = (stationId: number, id: number) => ["devices_by_parent", stationId, id];
export const customerKey = (
  customerId: number,
  id: number,
) => ["devices_by_customer", customerId, id];
export const tenantKey = (tenantId: number, id: number) => ["devices_by_tenant", tenantId, id];
export const unitKey = (
  stationId: number,
  unitId: string,
) => ["devices_by_unit", stationId, unitId];
export const rowKey = (id: number) => ["station_rows", id];
export const countKey = (name: DeviceCountName) => ["device_counts", name];
export const zoneCountKey = (zoneId: number) => ["zone_station_counts", zoneId];
export const META_KEY = ["devices_meta", "indexes"];
export const REVISION_KEY = ["devices_revision"];
/** The version of the rows and counts that {@link ensureDeviceIndexes} builds. */
export const INDEX_VERSION = 2;

/** The summary of a stored station. */
export function stationSummary(d: StoredDevice): StationSummary {
  return {
    id: d.id,
    name: d.name,
    serial_number: d.serial_number,
    station_id: d.station_id,
    customer_id: d.customer_id,
    zone_id: d.zone_id,
    location: d.location,
    units: d.config.station?.units.length ?? 0,
    created_at: d.created_at,
  };
}

/** What a device adds to each count. */
export function countsOf(d: StoredDevice | null): DeviceCounts {
  if (!d) return { stations: 0, sensors: 0, units: 0 };
  return d.type === "station"
    ? { stations: 1, sensors: 0, units: d.config.station?.units.length ?? 0 }
    : { stations: 0, sensors: 1, units: 0 };
}

const U64 = 1n << 64n;
/** Adds `n` (which may be negative) to the counter at `key` inside `op`. */
export function addTo(op: Deno.AtomicOperation, key: Deno.KvKey, n: number) {
  if (n !== 0) op.sum(key, ((BigInt(n) % U64) + U64) % U64);
}

/** A kept counter's value (0 when never written). */
export const counted = (e: Deno.KvEntryMaybe<Deno.KvU64>) =>
  e.value ? Number(BigInt.asIntN(64, e.value.value)) : 0;

/** The zone a device counts in: a station's zone, or null. */
export const zoneOf = (d: StoredDevice | null) => d?.type === "station" ? d.zone_id ?? null : null;
