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

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
