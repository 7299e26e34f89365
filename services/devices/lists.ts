/**
 * The admin's station lists, paged on the server: the rows are searched and sorted over the
 * stations' summaries (`db/devices.ts`, one small entry per station), and full views are
 * built only for the page shown. Also the fleet's counts, kept with the writes, and the
 * compact station aggregate of the dashboard's map.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import {
  type DeviceStats,
  type DeviceStatus,
  type DeviceView,
  type StationSummary,
} from "../../core/devices.ts";
import { effectiveStationStatus, parseLocation } from "../../core/device_rules.ts";
import {
  type ListQuery,
  matches,
  type Page,
  pageOf,
  paginate,
  sortRows,
} from "../../core/paging.ts";
import { getDevices } from "../../db/devices.ts";
import {
  deviceCounts,
  listDevicesAfter,
  listStationSummaries,
  sensorsByStation,
  stationSummariesSlice,
} from "../../db/device_lists.ts";
import { fullNames } from "../../db/users.ts";
import { allStatuses } from "../../db/device_status.ts";
import { serve } from "./scope.ts";
import { fleetOnline } from "./fleet_online.ts";
import { type DeviceFilter, listDeviceViews } from "./views.ts";

/** The sort keys of the station list (the first is the default: oldest first). */
export const STATION_SORTS = ["id", "name", "serial", "customer", "units"] as const;
/** A sort key of the station list. */
export type StationSort = typeof STATION_SORTS[number];

/** Filters of a station list page. */
interface StationPageFilter {
  /** Only the stations of this pricing zone. */
  zone_id?: number;
}

/**
 * One page of the stations the admin sees, searched by name, city, serial number, customer
 * and station id, sorted by a visible column; views are built for that page only.
 */
export async function pageStationViews(
  deps: Deps,
  admin: User,
  query: ListQuery<StationSort>,
  filter: StationPageFilter = {},
): Promise<Page<DeviceView>> {
  if (
    filter.zone_id === undefined && query.q === "" && query.sort === "id" && query.dir === "asc"
  ) {
    // The default order of every station: the count is kept, and only up to the page is read.
    const total = (await deviceCounts(deps.kv)).stations;
    const { page, pages, start } = pageOf(total, query);
    const slice = await stationSummariesSlice(deps.kv, start, query.size);
    const stored = await getDevices(deps.kv, slice.map((s) => s.id));
    return { rows: await serve(deps, admin, stored), total, page, size: query.size, pages };
  }
  let rows = await listStationSummaries(deps.kv);
  if (filter.zone_id !== undefined) rows = rows.filter((s) => s.zone_id === filter.zone_id);
  const needNames = query.q !== "" || query.sort === "customer";
  const names = needNames
    ? await fullNames(deps.kv, rows.map((s) => s.customer_id))
    : new Map<number, string>();
  const customer = (s: StationSummary) =>
    s.customer_id === null ? null : names.get(s.customer_id) ?? null;
  if (query.q) {
    rows = rows.filter((s) =>
      String(s.id) === query.q || matches(query.q, [
        s.name,
        parseLocation(s.location).city,
        s.serial_number,
        customer(s),
        s.station_id,
      ])
    );
  }
  if (query.sort !== "id" || query.dir !== "asc") {
    const key: Record<StationSort, (s: StationSummary) => string | number | null> = {
      id: (s) => s.id,
      name: (s) => s.name,
      serial: (s) => s.serial_number,
      customer,
      units: (s) => s.units,
    };
    sortRows(rows, key[query.sort], query.dir, (s) => s.id);
  }
  const page = paginate(rows, query);
  const stored = await getDevices(deps.kv, page.rows.map((s) => s.id));
  return { ...page, rows: await serve(deps, admin, stored) };
}

/** A station as the dashboard's map shows it. */
interface StationPin {
  id: number;
  name: string;
  city: string;
  status: DeviceStatus;
}

/**
 * Every station as the map shows it (name, city, effective status), read from the summaries,
 * the parent index and the status records: three scans of small entries, no device records.
 */
export async function stationPins(deps: Deps): Promise<StationPin[]> {
  const [rows, sensors, status] = await Promise.all([
    listStationSummaries(deps.kv),
    sensorsByStation(deps.kv),
    allStatuses(deps.kv),
  ]);
  const of = (id: number) => status.get(id) ?? "unknown";
  return rows.map((s) => ({
    id: s.id,
    name: s.name,
    city: parseLocation(s.location).city,
    status: effectiveStationStatus(of(s.id), (sensors.get(s.id) ?? []).map(of)),
  }));
}

/** How many stations there are (kept count) and how many are online ({@link fleetOnline}). */
export async function stationsOnline(deps: Deps): Promise<{ online: number; total: number }> {
  const [counts, online] = await Promise.all([deviceCounts(deps.kv), fleetOnline(deps)]);
  return { online: online.stations, total: counts.stations };
}

/**
 * The admin's counts of the whole fleet: stations, sensors and units from the counters kept
 * with every device write; online devices from {@link fleetOnline}.
 */
export async function fleetStats(deps: Deps): Promise<DeviceStats> {
  const [counts, online] = await Promise.all([deviceCounts(deps.kv), fleetOnline(deps)]);
  return {
    stationCount: counts.stations,
    sensorCount: counts.sensors,
    onlineCount: online.devices,
    unitCount: counts.units,
  };
}

/**
 * The devices `viewer` may see as {@link listDeviceViews} answers them, at most `limit` after
 * the device with id `after`, and whether more follow. The admin's unfiltered list reads only
 * the devices it answers; other lists read their scope and slice it.
 */
export async function pageDeviceViews(
  deps: Deps,
  viewer: User,
  filter: DeviceFilter,
  limit: number | undefined,
  after: number | null,
): Promise<{ devices: DeviceView[]; more: boolean }> {
  const unfiltered = !filter.type && !filter.customer_id && !filter.tenant_id;
  if (viewer.role === "admin" && unfiltered) {
    const stored = await listDevicesAfter(
      deps.kv,
      after,
      limit === undefined ? undefined : limit + 1,
    );
    const more = limit !== undefined && stored.length > limit;
    return { devices: await serve(deps, viewer, more ? stored.slice(0, limit) : stored), more };
  }
  const all = await listDeviceViews(deps, viewer, filter);
  const start = after === null ? 0 : all.findIndex((d) => d.id > after);
  const rest = start < 0 ? [] : all.slice(start);
  const devices = limit === undefined ? rest : rest.slice(0, limit);
  return { devices, more: devices.length < rest.length };
}
