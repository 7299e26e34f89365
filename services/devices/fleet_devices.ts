/**
 * Every stored device, for the admin's views of the whole fleet (`scope.ts`). Reading and
 * decoding them all is the largest part of answering `GET /api/devices` for a large fleet, and
 * devices change only when someone edits them, so the list is kept per store and read again
 * only when the devices' revision (moved by every device write) changed. The records are
 * shared between requests: nothing may change them (they are frozen).
 */
import { listDevices } from "../../db/devices.ts";
import { devicesRevision } from "../../db/device_lists.ts";
import { type StoredDevice } from "../../core/devices.ts";

interface Kept {
  revision: bigint;
  devices: readonly StoredDevice[];
}

const kept = new WeakMap<Deno.Kv, Kept>();

/** Every stored device, oldest first, as of the latest device write. */
export async function fleetDevices(kv: Deno.Kv): Promise<readonly StoredDevice[]> {
  const revision = await devicesRevision(kv);
  const prev = kept.get(kv);
  if (prev?.revision === revision) return prev.devices;
  const devices = (await listDevices(kv)).map(deepFreeze);
  // A write during the read moved the revision: keep the list only under the one read before it.
  kept.set(kv, { revision, devices });
  return devices;
}

/** The fleet's devices by who holds or owns them, made once per list (see {@link fleetGroups}). */
export interface FleetGroups {
  /** Each tenant's sensors (the units they hold now). */
  sensorsOfTenant: ReadonlyMap<number, readonly StoredDevice[]>;
  /** Each owner's stations. */
  stationsOfCustomer: ReadonlyMap<number, readonly StoredDevice[]>;
  /** Each station's sensors. */
  sensorsOfStation: ReadonlyMap<number, readonly StoredDevice[]>;
}

const groups = new WeakMap<readonly StoredDevice[], FleetGroups>();

/**
 * The fleet grouped by tenant, owner and station, as of the latest device write: a page's tag
 * finds a tenant's few meters among tens of thousands without going through them all.
 */
export async function fleetGroups(kv: Deno.Kv): Promise<FleetGroups> {
  const devices = await fleetDevices(kv);
  let made = groups.get(devices);
  if (!made) {
    const sensorsOfTenant = new Map<number, StoredDevice[]>();
    const stationsOfCustomer = new Map<number, StoredDevice[]>();
    const sensorsOfStation = new Map<number, StoredDevice[]>();
    const add = (map: Map<number, StoredDevice[]>, key: number, d: StoredDevice) => {
      const list = map.get(key);
      if (list) list.push(d);
      else map.set(key, [d]);
    };
    for (const d of devices) {
      if (d.type === "station" && d.customer_id !== null) add(stationsOfCustomer, d.customer_id, d);
      if (d.type !== "sensor") continue;
      if (d.tenant_id !== null) add(sensorsOfTenant, d.tenant_id, d);
      if (d.parent_id !== null) add(sensorsOfStation, d.parent_id, d);
    }
    made = { sensorsOfTenant, stationsOfCustomer, sensorsOfStation };
    groups.set(devices, made);
  }
  return made;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
