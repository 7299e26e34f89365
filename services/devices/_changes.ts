/**
 * What the device changes share: the locale keys of their refusals, the refusals (with the
 * placeholders of device messages), and turning a store write into the served device.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { DEVICE_MESSAGE_PARAMS } from "../../core/device_rules.ts";
import { conflict, notFound, Refusal, unavailable } from "../refusal.ts";
import { type DeviceView } from "../../core/devices.ts";
import { type WriteResult } from "../../db/devices.ts";
import { deleteStatusOf } from "../../db/device_status.ts";
import { resolveBySubject } from "../../db/notifications.ts";
import { getUser } from "../../db/users.ts";
import { getDeviceView } from "./views.ts";

/** Prefix of the device validation messages. */
export const DV = "devices.validation.";
/** 'Station not found'. */
export const STATION_NOT_FOUND = "devices.sensor_form.errors.station_not_found";
/** 'Sensor not found'. */
export const SENSOR_NOT_FOUND = "devices.api.sensor_not_found";
/** 'Device not found'. */
export const DEVICE_NOT_FOUND = "devices.api.device_not_found";
/** 'Cannot delete station with active sensors. Please delete all sensors first.' */
export const STATION_HAS_SENSORS = "devices.station_data.delete_station_dialog.has_sensors";

/** The message of a unique field that is taken. */
export const TAKEN_KEYS: Record<string, string> = {
  serial_number: `${DV}serial_taken`,
  mqtt_username: `${DV}mqtt_username_taken`,
  unit_id: `${DV}unit_taken`,
};

/** A refusal of one field (invalid input), worded with the device messages' placeholders. */
export const fieldError = (field: string, key: string): Refusal =>
  new Refusal("invalid", key, { [field]: key }, undefined, DEVICE_MESSAGE_PARAMS);

/** A refusal by the state of the devices (e.g. a unit in use). */
export const deviceConflict = (key: string): Refusal =>
  conflict(key, undefined, DEVICE_MESSAGE_PARAMS);

/** The MQTT broker could not be brought along (`key` says why). */
export const brokerFailure = (key: string): Refusal =>
  unavailable(key, undefined, DEVICE_MESSAGE_PARAMS);

/** The served device of a write; refused as the write was (`missing` when it is gone). */
export async function answer(
  deps: Deps,
  actor: User,
  res: WriteResult,
  missing: string,
): Promise<DeviceView> {
  if (res.ok) {
    const view = await getDeviceView(deps, actor, res.device.id);
    if (view) return view;
    throw notFound(missing);
  }
  if (res.reason === "taken") throw fieldError(res.field, TAKEN_KEYS[res.field]);
  if (res.reason === "refused") {
    throw res.field ? fieldError(res.field, res.key) : deviceConflict(res.key);
  }
  if (res.reason === "parent_missing") throw notFound(STATION_NOT_FOUND);
  throw notFound(missing);
}

/** Forgets a deleted device's status and resolves its open offline notifications. */
export async function forgetStatus(deps: Deps, id: number) {
  const rec = await deleteStatusOf(deps.kv, id);
  for (const userId of rec.notified) {
    await resolveBySubject(deps.kv, userId, "sensor_offline", String(id));
  }
}

/** Whether `id` is an existing tenant account. */
export async function isTenant(deps: Deps, id: number): Promise<boolean> {
  return (await getUser(deps.kv, id))?.role === "user";
}
