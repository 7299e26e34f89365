/**
 * An owner's stations (spec 001 section 6: the dashboard lists the stations of the signed-in
 * customer): each with its zone, and one station by id. A station that is missing or another
 * owner's is not found, never forbidden (its existence would leak).
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceView } from "../../core/devices.ts";
import type { Zone } from "../../core/zone.ts";
import { getDeviceView, listDeviceViews, listSensorViews } from "../devices/mod.ts";
import { stationContext } from "../reports/mod.ts";
import { notFound } from "../refusal.ts";

/** The message of a station that is missing or not the caller's. */
const STATION_NOT_FOUND = "customer.installation_detail.errors.could_not_load";

/** A station of the owner with its zone as it is now. */
export interface OwnerStation {
  station: DeviceView;
  zone: Zone | null;
}

/** The caller's stations, oldest first (none for other roles). */
export async function ownerStations(deps: Deps, user: User): Promise<OwnerStation[]> {
  if (user.role !== "customer") return [];
  const views = await listDeviceViews(deps, user, { type: "station", customer_id: user.id });
  // Each station's zone read together, not one station after another.
  return await Promise.all(views.map(async (station) => ({
    station,
    zone: (await stationContext(deps, station.id))?.zone ?? null,
  })));
}

/** One of the caller's stations with its sensors; not found when missing or not theirs. */
export async function ownerStation(
  deps: Deps,
  user: User,
  id: number,
): Promise<OwnerStation & { sensors: DeviceView[] }> {
  const station = user.role === "customer" ? await getDeviceView(deps, user, id) : null;
  if (!station || station.type !== "station" || station.customer_id !== user.id) {
    throw notFound(STATION_NOT_FOUND);
  }
  const sensors = (await listSensorViews(deps, user, id)) ?? [];
  return { station, zone: (await stationContext(deps, id))?.zone ?? null, sensors };
}
