/** Sensors of a station (admin): create, edit, delete; the unit must be a unit of the station. */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import {
  type DeviceView,
  sensorStationId,
  sensorTopicPrefix,
  type StoredDevice,
} from "../../core/devices.ts";
import { type SensorInput } from "../../core/device_rules.ts";
import { deleteDevice, getStationSensor } from "../../db/devices.ts";
import { forgetSensorCertificate } from "./certificates.ts";
import { answer, DV, fieldError, forgetStatus, isTenant, SENSOR_NOT_FOUND } from "./_changes.ts";
import { notFound } from "../refusal.ts";
import { moveTenantIn, moveTenantOut } from "./tenancies.ts";
import { type MeterChangeTrack, stageSerialChange, withMeterUndo } from "./meter_history.ts";
import {
  createFollowed,
  leaveBroker,
  type PasswordFields,
  updateFollowed,
} from "./broker_accounts.ts";

/** The stored sensor from a validated body, or a refusal when its unit is not in `station`. */
function sensorRecord(
  id: number,
  station: StoredDevice,
  input: SensorInput,
  pw: PasswordFields,
  now: number,
  prev: StoredDevice | null,
): StoredDevice | { reason: "refused"; key: string; field: string } {
  const unitId = input.config.sensor.unit_id;
  if (!station.config.station?.units.some((u) => u.id === unitId)) {
    return {
      reason: "refused",
      key: "devices.sensor_form.errors.unit_not_found",
      field: "unit_id",
    };
  }
  const tenant = input.config.sensor.tenant_id;
  return {
    id,
    type: "sensor",
    name: input.name,
    serial_number: input.serial_number,
    station_id: sensorStationId(station.station_id, input.serial_number),
    parent_id: station.id,
    zone_id: null,
    location: "",
    customer_id: null,
    tenant_id: tenant,
    config: {
      mqtt: {
        username: input.config.mqtt.username,
        topic_prefix: sensorTopicPrefix(input.serial_number),
      },
      sensor: {
        unit_id: unitId,
        tenant_id: tenant,
        ip_address: input.config.sensor.ip_address,
        ...(input.config.sensor.master ? { master: true } : {}),
      },
    },
    created_at: prev?.created_at ?? now,
    updated_at: now,
    ...pw,
  };
}

/** Refuses (400 naming `tenant_id`) a sensor whose tenant is not a tenant's account. */
async function refuseUnknownTenant(deps: Deps, input: SensorInput): Promise<void> {
  const tenant = input.config.sensor.tenant_id;
  if (tenant !== null && !(await isTenant(deps, tenant))) {
    throw fieldError("tenant_id", `${DV}tenant_invalid`);
  }
}

/** Adds a sensor to a station (admin): unit of that station, free; tenant an existing tenant. */
export async function createSensor(
  deps: Deps,
  actor: User,
  stationId: number,
  input: SensorInput,
): Promise<DeviceView> {
  await refuseUnknownTenant(deps, input);
  const res = await createFollowed(
    deps,
    stationId,
    input.config.mqtt.password,
    (id, station, pw) => sensorRecord(id, station!, input, pw, deps.now(), null),
  );
  if (res.ok) deps.log.log("info", "sensor created", { id: res.device.id, station: stationId });
  return answer(deps, actor, res, SENSOR_NOT_FOUND);
}

/**
 * Edits a sensor of a station (admin); a blank password keeps the current one. A new serial
 * number is a new meter: the replacement is recorded in the sensor's meter history, in the
 * same commit, at this instant (without counters; the sensor page's replacement records them).
 */
export async function updateSensor(
  deps: Deps,
  actor: User,
  stationId: number,
  sensorId: number,
  input: SensorInput,
): Promise<DeviceView> {
  await refuseUnknownTenant(deps, input);
  let before: number | null = null;
  const track: MeterChangeTrack = {};
  const res = await withMeterUndo(
    deps,
    sensorId,
    track,
    updateFollowed(
      deps,
      sensorId,
      input.config.mqtt.password,
      (cur, station, pw) => {
        if (cur.type !== "sensor" || cur.parent_id !== stationId || !station) {
          return { reason: "not_found" };
        }
        before = cur.tenant_id ?? cur.config.sensor?.tenant_id ?? null;
        return sensorRecord(sensorId, station, input, pw, deps.now(), cur);
      },
      stageSerialChange(deps, { at: null, last_kwh: null, first_kwh: null }, track),
    ),
  );
  // A new tenant chosen on the form moves in now (and the one before moves out).
  const tenant = input.config.sensor.tenant_id;
  if (res.ok && tenant !== before) {
    if (tenant === null) {
      await moveTenantOut(deps, sensorId, {}, String(actor.id), { pointer: before });
    } else await moveTenantIn(deps, tenant, [res.device], {}, { pointer: before });
  }
  return answer(deps, actor, res, SENSOR_NOT_FOUND);
}

/**
 * Deletes a sensor of a station (admin). With MQTT_DYNSEC on, its broker account goes
 * first and the delete is refused (502) when the broker cannot be told: a deleted sensor
 * must not keep a working login. Its client certificate is forgotten.
 */
export async function deleteSensor(
  deps: Deps,
  stationId: number,
  sensorId: number,
): Promise<number> {
  const cur = await getStationSensor(deps.kv, stationId, sensorId);
  if (!cur) throw notFound(SENSOR_NOT_FOUND);
  await leaveBroker(deps, cur);
  const audit = auditStamp(deps, "device.delete", `device:${sensorId}`);
  const res = await deleteDevice(deps.kv, sensorId, audit);
  if (!res.ok) throw notFound(SENSOR_NOT_FOUND);
  await forgetSensorCertificate(deps, sensorId).catch((e) =>
    deps.log.log("error", "sensor certificate not forgotten", { id: sensorId, error: String(e) })
  );
  await forgetStatus(deps, sensorId);
  deps.log.log("info", "sensor deleted", { id: sensorId, station: stationId });
  return 1;
}
