/**
 * Pricing zones: zones with their station counts, stations, delete (bodies come validated by
 * the routes with core/zone.ts `zoneFormSchema`).
 */
import { auditStamp } from "./audit.ts";
import type { Deps } from "./deps.ts";
import { conflict, notFound } from "./refusal.ts";
import type { User } from "../core/types.ts";
import type { Zone } from "../core/zone.ts";
import { zoneStationCounts } from "../db/device_lists.ts";
import { clockOf } from "./platform/clock.ts";
import { firstDayOf, versionOn, type ZoneHistoryEntry } from "../core/zone_versions.ts";
import {
  createZone,
  deleteZone,
  getZone,
  getZoneInForce,
  listZones,
  type StoredVersion,
  type StoredZone,
  updateZone,
  zoneHistory,
  zoneVersions,
} from "../db/zones.ts";
import { listDeviceViews, pageStationViews, scopeOf, type StationSort } from "./devices/mod.ts";
import type { ListQuery, Page } from "../core/paging.ts";
import type { DeviceView } from "../core/devices.ts";

/** Locale key of the not-found answer. */
export const ZONE_NOT_FOUND = "zones.zone_detail.errors.not_found";
/** Locale key of the refusal to delete a zone with stations. */
const ZONE_HAS_STATIONS = "zones.zone_detail.errors.cannot_delete";

export type { StoredZone };

/** A zone as served: stored fields plus its station count. */
export type ZoneView = StoredZone & { station_count: number };

/** A station of a zone (spec 001 section 3, zone station). */
export interface ZoneStation {
  id: number;
  name: string;
  location: string;
  serial_number: string;
  units_count: number;
  status: string;
  payment_status: string;
}

/** A zone with the prices of the version in force today (a later version waits its month). */
async function inForce(deps: Deps, z: StoredZone): Promise<StoredZone> {
  return (await getZoneInForce(deps.kv, z.id, clockOf(deps).todayText())) ?? z;
}

/** Every zone (prices in force today) with its station count. */
export async function zoneViews(deps: Deps): Promise<ZoneView[]> {
  const counts = await zoneStationCounts(deps.kv);
  const zones = await Promise.all((await listZones(deps.kv)).map((z) => inForce(deps, z)));
  return zones.map((z) => ({ ...z, station_count: counts.get(z.id) ?? 0 }));
}

/** One zone (prices in force today) with its station count, or null. */
export async function zoneView(deps: Deps, id: number): Promise<ZoneView | null> {
  const z = await getZone(deps.kv, id);
  if (!z) return null;
  return {
    ...await inForce(deps, z),
    station_count: (await zoneStationCounts(deps.kv)).get(id) ?? 0,
  };
}

/** The stations assigned to a zone, as `viewer` may see them. */
/**
 * Whether `viewer` may read zone `id` (spec 001 section 7, tenant pricing): admins every
 * zone, a customer the zones of their stations, a tenant the zones of their units' stations.
 */
export async function zoneVisibleTo(deps: Deps, viewer: User, id: number): Promise<boolean> {
  if (viewer.role === "admin") return true;
  const scope = await scopeOf(deps, viewer);
  const stations = viewer.role === "customer" ? scope.full.values() : scope.basic.values();
  for (const d of stations) if (d.type === "station" && d.zone_id === id) return true;
  return false;
}

export async function zoneStations(deps: Deps, viewer: User, id: number): Promise<ZoneStation[]> {
  const views = await listDeviceViews(deps, viewer, { type: "station" });
  return views.filter((s) => s.zone_id === id).map(zoneStation);
}

/** A station view as a zone's station list shows it. */
const zoneStation = (s: DeviceView): ZoneStation => ({
  id: s.id,
  name: s.name,
  location: s.location,
  serial_number: s.serial_number,
  units_count: s.config.station?.units.length ?? 0,
  status: s.status,
  payment_status: s.payment_status,
});

/** One page of the stations assigned to a zone (the admin's view), sorted and searched. */
export async function zoneStationsPage(
  deps: Deps,
  admin: User,
  id: number,
  query: ListQuery<StationSort>,
): Promise<Page<ZoneStation>> {
  const page = await pageStationViews(deps, admin, query, { zone_id: id });
  return { ...page, rows: page.rows.map(zoneStation) };
}

/**
 * Deletes a zone; refused when it does not exist (not found) or while stations are
 * assigned to it (conflict, with their number as `stations`).
 */
export async function removeZone(deps: Deps, id: number): Promise<void> {
  if (!await getZone(deps.kv, id)) throw notFound(ZONE_NOT_FOUND);
  const n = (await zoneStationCounts(deps.kv)).get(id) ?? 0;
  if (n > 0) throw conflict(ZONE_HAS_STATIONS, undefined, { stations: n });
  if (!await deleteZone(deps.kv, id, auditStamp(deps, "zone.delete", `zone:${id}`))) {
    throw notFound(ZONE_NOT_FOUND);
  }
}

/** The stored zone with `id` (prices in force today), or null. */
export async function findZone(deps: Deps, id: number): Promise<StoredZone | null> {
  const z = await getZone(deps.kv, id);
  return z ? await inForce(deps, z) : null;
}

/** Every zone as a choice of the station form: id and name. */
export async function zoneChoices(deps: Deps): Promise<{ id: number; name: string }[]> {
  return (await listZones(deps.kv)).map((z) => ({ id: z.id, name: z.name }));
}

/** Creates a zone from a validated body. */
export function addZone(deps: Deps, zone: Zone): Promise<StoredZone> {
  return createZone(deps.kv, zone, deps.now(), auditStamp(deps, "zone.create", "zone:new"));
}

/**
 * Replaces a zone's definition. Its identity (name, billing type) applies at once; its prices,
 * tariff settings and owner's terms (`core/zone_fields.ts`) are, with `effectiveFrom`
 * (`YYYY-MM`), a new version from the first day of that month in the business time zone, and
 * without it a correction of the version in force today. Other versions stay as they were.
 * Null when the zone is gone.
 */
export function editZone(
  deps: Deps,
  id: number,
  zone: Zone,
  effectiveFrom?: string,
): Promise<StoredZone | null> {
  const clock = clockOf(deps);
  const from = effectiveFrom === undefined ? undefined : firstDayOf(effectiveFrom);
  return updateZone(deps.kv, id, zone, clock.now(), {
    today: clock.todayText(),
    applies_from: from,
    starts_at: from === undefined ? undefined : new Date(clock.dayStart(from)).toISOString(),
  }, auditStamp(deps, "zone.update", `zone:${id}`));
}

/** A price version as listed: the version, and whether it is the one in force today. */
export type VersionView = StoredVersion & { in_force: boolean };

/** A zone's price versions, oldest first (empty when the zone does not exist). */
export async function zonePriceVersions(deps: Deps, id: number): Promise<VersionView[]> {
  const versions = await zoneVersions(deps.kv, id);
  if (versions.length === 0) return [];
  const current = versionOn(versions, clockOf(deps).todayText());
  return versions.map((v) => ({ ...v, in_force: v === current }));
}

/** A zone's price history, newest first. */
export function zonePriceHistory(deps: Deps, id: number): Promise<ZoneHistoryEntry[]> {
  return zoneHistory(deps.kv, id);
}
