/**
 * The devices a viewer sees with their disconnect events in a window: the input of the system
 * uptime figures and connectivity rows (`services/measurements.ts`). For the admin's whole
 * fleet they come from what is kept per store (the device records, the statuses of the last
 * count, at most a few seconds old) and one range read of the fleet's events in the window,
 * so the cost follows the disconnections, not the number of devices; others' scopes are read
 * device by device.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceStatus, DisconnectEvent } from "../../core/devices.ts";
import { effectiveStationStatus } from "../../core/device_rules.ts";
import { fleetDisconnectEvents, listDisconnectEvents } from "../../db/device_status.ts";
import { fleetDevices } from "./fleet_devices.ts";
import { fleetStatuses } from "./fleet_online.ts";
import { listDeviceViews } from "./views.ts";

/** A device with its status (a station's effective one) and its events in the window. */
export interface DeviceDisconnects {
  id: number;
  type: "station" | "sensor";
  created_at: number;
  status: DeviceStatus;
  events: readonly DisconnectEvent[];
}

const NONE: readonly DisconnectEvent[] = Object.freeze([]);

/** The devices `viewer` may see with their disconnect events overlapping `[from, to)`. */
export async function devicesWithDisconnects(
  deps: Deps,
  viewer: User,
  from: number,
  to: number,
): Promise<DeviceDisconnects[]> {
  if (viewer.role === "admin") {
    const [devices, statuses, events] = await Promise.all([
      fleetDevices(deps.kv),
      fleetStatuses(deps),
      fleetDisconnectEvents(deps.kv, from, to),
    ]);
    const own = (id: number) => statuses.status.get(id) ?? "unknown";
    return devices.map((d) => ({
      id: d.id,
      type: d.type,
      created_at: d.created_at,
      status: d.type === "station"
        ? effectiveStationStatus(own(d.id), (statuses.sensorsOf.get(d.id) ?? []).map(own))
        : own(d.id),
      events: events.get(d.id) ?? NONE,
    }));
  }
  const views = await listDeviceViews(deps, viewer);
  return await Promise.all(views.map(async (v) => ({
    id: v.id,
    type: v.type,
    created_at: v.created_at,
    status: v.status,
    events: await listDisconnectEvents(deps.kv, v.id, from, to),
  })));
}
