/**
 * The fleet a viewer sees, for the system uptime figures and connectivity rows
 * (`services/measurements.ts`): each device type's compact shape (`core/fleet_uptime.ts`) and
 * the devices that had disconnections in a window. For the admin's whole fleet the shape is
 * built once per state of what is kept per store (the device records, the statuses of the
 * last count, at most a few seconds old) and the events come from one range read of the
 * fleet's events in the window, so a figure costs what the disconnections cost, not the
 * number of devices; others' scopes are read device by device.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceStatus, DisconnectEvent, StoredDevice } from "../../core/devices.ts";
import { effectiveStationStatus } from "../../core/device_rules.ts";
import { type FleetMember, type FleetShape, fleetShape } from "../../core/fleet_uptime.ts";
import { fleetDisconnectEvents, listDisconnectEvents } from "../../db/device_status.ts";
import { fleetDevices } from "./fleet_devices.ts";
import { type FleetStatuses, fleetStatuses } from "./fleet_online.ts";
import { listDeviceViews } from "./views.ts";

type DeviceType = "station" | "sensor";

/** A device that had disconnections in the window, with them. */
interface DeviceDisconnects {
  id: number;
  type: DeviceType;
  created_at: number;
  heard: boolean;
  events: readonly DisconnectEvent[];
}

/** What the system figures are counted from. */
interface FleetConnectivity {
  shape: Record<DeviceType, FleetShape>;
  /** Only devices with at least one event overlapping the window. */
  withEvents: Record<DeviceType, DeviceDisconnects[]>;
}

interface Member extends FleetMember {
  id: number;
  type: DeviceType;
}

interface Shaped {
  shape: Record<DeviceType, FleetShape>;
  byId: ReadonlyMap<number, Member>;
}

function shaped(members: Member[]): Shaped {
  return {
    shape: {
      station: fleetShape(members.filter((m) => m.type === "station")),
      sensor: fleetShape(members.filter((m) => m.type === "sensor")),
    },
    byId: new Map(members.map((m) => [m.id, m])),
  };
}

function member(id: number, type: DeviceType, created_at: number, status: DeviceStatus): Member {
  return { id, type, created_at, heard: status !== "unknown", online: status === "online" };
}

/** The admin's fleet shaped, kept for as long as the kept devices and statuses are the same. */
const kept = new WeakMap<FleetStatuses, { devices: readonly StoredDevice[]; shaped: Shaped }>();

function fleetShaped(devices: readonly StoredDevice[], statuses: FleetStatuses): Shaped {
  const prev = kept.get(statuses);
  if (prev?.devices === devices) return prev.shaped;
  const own = (id: number) => statuses.status.get(id) ?? "unknown";
  const result = shaped(devices.map((d) =>
    member(
      d.id,
      d.type,
      d.created_at,
      d.type === "station"
        ? effectiveStationStatus(own(d.id), (statuses.sensorsOf.get(d.id) ?? []).map(own))
        : own(d.id),
    )
  ));
  kept.set(statuses, { devices, shaped: result });
  return result;
}

function grouped(
  byId: ReadonlyMap<number, Member>,
  events: Iterable<[number, readonly DisconnectEvent[]]>,
): Record<DeviceType, DeviceDisconnects[]> {
  const out: Record<DeviceType, DeviceDisconnects[]> = { station: [], sensor: [] };
  for (const [id, list] of events) {
    const m = byId.get(id);
    if (!m || list.length === 0) continue;
    out[m.type].push({ id, type: m.type, created_at: m.created_at, heard: m.heard, events: list });
  }
  return out;
}

/** The fleet `viewer` may see, with the disconnections overlapping `[from, to)`. */
export async function fleetConnectivity(
  deps: Deps,
  viewer: User,
  from: number,
  to: number,
): Promise<FleetConnectivity> {
  if (viewer.role === "admin") {
    const [devices, statuses, events] = await Promise.all([
      fleetDevices(deps.kv),
      fleetStatuses(deps),
      fleetDisconnectEvents(deps.kv, from, to),
    ]);
    const { shape, byId } = fleetShaped(devices, statuses);
    return { shape, withEvents: grouped(byId, events) };
  }
  const views = await listDeviceViews(deps, viewer);
  const { shape, byId } = shaped(views.map((v) => member(v.id, v.type, v.created_at, v.status)));
  const events = await Promise.all(
    views.map(async (v) =>
      [v.id, await listDisconnectEvents(deps.kv, v.id, from, to)] as [number, DisconnectEvent[]]
    ),
  );
  return { shape, withEvents: grouped(byId, events) };
}
