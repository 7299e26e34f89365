/**
 * Brings the broker's device accounts in line with the portal (MQTT_DYNSEC=on), for devices
 * that existed before dynamic security was turned on or whose broker account was lost: each
 * station and sensor is provisioned again from its stored record (`deno task provision`).
 * Devices whose password was set before the portal kept it sealed cannot be provisioned:
 * they are listed so that an admin sets their password again.
 */
import type { Deps } from "../deps.ts";
import { listDevices } from "../../db/devices.ts";
import { PROVISIONING_KEYS } from "./provisioning.ts";
import { provisionStored } from "./broker_accounts.ts";

/** A device the sync could not provision, and why (a locale key). */
interface SyncFailure {
  id: number;
  name: string;
  username: string;
  key: string;
}

/** What a sync did. */
interface SyncResult {
  /** Ids of the devices whose accounts now match the portal. */
  provisioned: number[];
  /** Devices without a kept password: set it again on the device's form. */
  needs_password: SyncFailure[];
  /** Devices the broker did not take. */
  failed: SyncFailure[];
}

/** Provisions every station and sensor; `onDevice` hears each outcome. */
export async function syncDeviceAccounts(
  deps: Deps,
  onDevice?: (id: number, key: string | null) => void,
): Promise<SyncResult> {
  const result: SyncResult = { provisioned: [], needs_password: [], failed: [] };
  for (const d of await listDevices(deps.kv)) {
    const key = await provisionStored(deps, d, null);
    onDevice?.(d.id, key);
    if (key === null) {
      result.provisioned.push(d.id);
      continue;
    }
    const failure = { id: d.id, name: d.name, username: d.config.mqtt.username, key };
    if (key === PROVISIONING_KEYS.password_missing) result.needs_password.push(failure);
    else result.failed.push(failure);
  }
  return result;
}
