/**
 * A tenant's units (spec 001 section 6: devices filtered by tenant_id equal to the user's id):
 * each sensor bound to them with its unit name, station, city and zone. Another tenant's unit
 * is not found, never forbidden (its existence would leak).
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceStatus, DeviceView } from "../../core/devices.ts";
import { parseLocation } from "../../core/device_rules.ts";
import { listDeviceViews, tenancyWindows } from "../devices/mod.ts";
import { notFound } from "../refusal.ts";

/** The message of a unit that is missing or not the caller's. */
export const UNIT_NOT_FOUND = "tenant.unit_view.errors.not_found";

/** A tenant's unit: its sensor (`id`), the station's unit it measures and the station. */
export interface TenantUnit {
  /** The sensor's device id (the id of `/user/consumption/{id}`). */
  id: number;
  /** The unit's name on its station, else the sensor's name. */
  name: string;
  unit_id: string | null;
  serial_number: string;
  status: DeviceStatus;
  last_seen: number | null;
  /** The tenant's tenancies of the unit: what they may read of it (issue 24). */
  windows?: { from: number; to: number }[];
  station: {
    id: number;
    name: string;
    /** The city of its location, or null. */
    city: string | null;
    location: string;
    zone_id: number | null;
    zone_name: string | null;
  } | null;
}

function unitOf(
  sensor: DeviceView,
  stations: Map<number, DeviceView>,
): Omit<TenantUnit, "windows"> {
  const station = sensor.parent_id === null ? undefined : stations.get(sensor.parent_id);
  const unitId = sensor.config.sensor?.unit_id ?? null;
  const unit = station?.config.station?.units.find((u) => u.id === unitId);
  return {
    id: sensor.id,
    name: unit?.name || unitId || sensor.name,
    unit_id: unitId,
    serial_number: sensor.serial_number,
    status: sensor.status,
    last_seen: sensor.last_seen,
    station: station
      ? {
        id: station.id,
        name: station.name,
        city: parseLocation(station.location).city || null,
        location: station.location,
        zone_id: station.zone_id,
        zone_name: station.zone?.name ?? null,
      }
      : null,
  };
}

/** The caller's units (sensors whose tenant is the caller), oldest first. */
export async function tenantUnits(deps: Deps, user: User): Promise<TenantUnit[]> {
  if (user.role !== "user") return [];
  const views = await listDeviceViews(deps, user, { tenant_id: user.id });
  const stations = new Map(views.filter((d) => d.type === "station").map((d) => [d.id, d]));
  const sensors = views.filter((d) => d.type === "sensor" && d.tenant_id === user.id);
  return await Promise.all(sensors.map(async (s) => ({
    ...unitOf(s, stations),
    windows: await tenancyWindows(deps, user.id, s),
  })));
}

/** One of the caller's units; not found when it is missing or another tenant's. */
export async function tenantUnit(deps: Deps, user: User, id: number): Promise<TenantUnit> {
  const unit = (await tenantUnits(deps, user)).find((u) => u.id === id);
  if (!unit) throw notFound(UNIT_NOT_FOUND);
  return unit;
}
