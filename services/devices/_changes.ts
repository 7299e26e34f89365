/**
 * What the device changes share: the locale keys of their refusals, their outcomes, and
 * turning a store write into the served device or a refusal.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { FieldErrors } from "../../core/schemas.ts";
import { type DeviceView } from "../../core/devices.ts";
import { type WriteResult } from "../../db/devices.ts";
import { deleteStatusOf } from "../../db/device_status.ts";
import { resolveBySubject } from "../../db/notifications.ts";
import { getUser } from "../../db/users.ts";
import { getDeviceView } from "./views.ts";

export const DV = "devices.validation.";
/** 'Station not found'. */
export const STATION_NOT_FOUND = "devices.sensor_form.errors.station_not_found";
/** 'Sensor not found'. */
export const SENSOR_NOT_FOUND = "devices.api.sensor_not_found";
/** 'Device not found'. */
export const DEVICE_NOT_FOUND = "devices.api.device_not_found";
/** 'Cannot delete station with active sensors. Please delete all sensors first.' */
export const STATION_HAS_SENSORS = "devices.station_data.delete_station_dialog.has_sensors";

/** The outcome of a change; 502 when the MQTT broker could not be brought along. */
export type DeviceChange =
  | { ok: true; device: DeviceView }
  | { ok: false; status: 400 | 404 | 409 | 502; key: string; errors?: FieldErrors };

/** The outcome of a change with nothing to serve; 502 when the broker could not be told. */
export type DeviceAction =
  | { ok: true; count: number }
  | { ok: false; status: 400 | 404 | 409 | 502; key: string; errors?: FieldErrors };

export const TAKEN_KEYS: Record<string, string> = {
  serial_number: `${DV}serial_taken`,
  mqtt_username: `${DV}mqtt_username_taken`,
  unit_id: `${DV}unit_taken`,
};

/** A field refusal. */
export const fieldError = (field: string, key: string): DeviceChange & { ok: false } => ({
  ok: false,
  status: 400,
  key,
  errors: { [field]: key },
});

/** The served device of a write, or its refusal (`missing` when it is gone). */
export async function answer(deps: Deps, actor: User, res: WriteResult, missing: string) {
  if (res.ok) {
    const view = await getDeviceView(deps, actor, res.device.id);
    return view
      ? { ok: true as const, device: view }
      : { ok: false as const, status: 404 as const, key: missing };
  }
  if (res.reason === "taken") return fieldError(res.field, TAKEN_KEYS[res.field]);
  if (res.reason === "refused") {
    return res.field
      ? fieldError(res.field, res.key)
      : { ok: false as const, status: 409 as const, key: res.key };
  }
  if (res.reason === "parent_missing") {
    return { ok: false as const, status: 404 as const, key: STATION_NOT_FOUND };
  }
  return { ok: false as const, status: 404 as const, key: missing };
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
