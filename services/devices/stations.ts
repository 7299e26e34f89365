/** Stations (admin): create, edit, delete; a station's pricing zone must exist. */
import { auditStamp } from "../audit.ts";
import { getZone } from "../../db/zones.ts";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import {
  type DeviceView,
  sensorStationId,
  stationTopicPrefix,
  type StoredDevice,
} from "../../core/devices.ts";
import { locationJson, type StationInput } from "../../core/device_rules.ts";
import {
  deleteDevice,
  getDevice,
  sensorIdsOf,
  unitBindings,
  updateDevice,
} from "../../db/devices.ts";
import {
  answer,
  deviceConflict,
  DV,
  fieldError,
  forgetStatus,
  STATION_HAS_SENSORS,
  STATION_NOT_FOUND,
} from "./_changes.ts";
import { notFound } from "../refusal.ts";
import {
  createFollowed,
  leaveBroker,
  type PasswordFields,
  updateFollowed,
} from "./broker_accounts.ts";

/** Refuses (400 naming `zone_id`) a station whose pricing zone does not exist. */
async function refuseMissingZone(deps: Deps, input: StationInput): Promise<void> {
  if (input.zone_id !== null && !(await getZone(deps.kv, input.zone_id))) {
    throw fieldError("zone_id", "devices.validation.zone_invalid");
  }
}

/** The stored station from a validated body (`prev` when editing). */
function stationRecord(
  id: number,
  input: StationInput,
  pw: PasswordFields,
  now: number,
  prev: StoredDevice | null,
): StoredDevice {
  return {
    id,
    type: "station",
    name: input.name,
    serial_number: input.serial_number,
    station_id: input.station_id,
    parent_id: null,
    zone_id: input.zone_id,
    location: locationJson(input.location),
    customer_id: prev?.customer_id ?? null,
    tenant_id: null,
    config: {
      mqtt: {
        username: input.config.mqtt.username,
        topic_prefix: stationTopicPrefix(input.serial_number),
      },
      station: {
        ssrs: input.config.station.ssrs,
        units: input.config.station.units.map((u) => ({ ...u, station_id: id })),
      },
    },
    created_at: prev?.created_at ?? now,
    updated_at: now,
    ...pw,
  };
}

/** Creates a station (admin). */
export async function createStation(
  deps: Deps,
  actor: User,
  input: StationInput,
): Promise<DeviceView> {
  await refuseMissingZone(deps, input);
  const res = await createFollowed(
    deps,
    null,
    input.config.mqtt.password,
    (id, _parent, pw) => stationRecord(id, input, pw, deps.now(), null),
  );
  if (res.ok) deps.log.log("info", "station created", { id: res.device.id });
  return answer(deps, actor, res, STATION_NOT_FOUND);
}

/**
 * Edits a station (admin). A blank password keeps the current one; the customer stays; a
 * unit bound to a sensor cannot be removed; the sensors follow a new station id.
 */
export async function updateStation(
  deps: Deps,
  actor: User,
  id: number,
  input: StationInput,
): Promise<DeviceView> {
  await refuseMissingZone(deps, input);
  const res = await updateFollowed(
    deps,
    id,
    input.config.mqtt.password,
    async (cur, _parent, pw) => {
      if (cur.type !== "station") return { reason: "not_found" };
      const kept = new Set(input.config.station.units.map((u) => u.id));
      for (const unit of (await unitBindings(deps.kv, id)).keys()) {
        if (!kept.has(unit)) return { reason: "refused", key: `${DV}unit_in_use`, field: "units" };
      }
      return stationRecord(id, input, pw, deps.now(), cur);
    },
  );
  if (res.ok) {
    for (const sensorId of await sensorIdsOf(deps.kv, id)) {
      await updateDevice(deps.kv, sensorId, (s) => ({
        ...s,
        station_id: sensorStationId(res.device.station_id, s.serial_number),
      }));
    }
  }
  return answer(deps, actor, res, STATION_NOT_FOUND);
}

/** Deletes a station (admin); refused (409) while it has sensors. */
export async function deleteStation(deps: Deps, id: number): Promise<number> {
  const cur = await getDevice(deps.kv, id);
  if (!cur || cur.type !== "station") throw notFound(STATION_NOT_FOUND);
  if ((await sensorIdsOf(deps.kv, id)).length > 0) {
    throw deviceConflict(STATION_HAS_SENSORS);
  }
  await leaveBroker(deps, cur);
  const res = await deleteDevice(deps.kv, id, auditStamp(deps, "device.delete", `device:${id}`));
  if (!res.ok) {
    throw res.reason === "refused"
      ? deviceConflict(STATION_HAS_SENSORS)
      : notFound(STATION_NOT_FOUND);
  }
  await forgetStatus(deps, id);
  deps.log.log("info", "station deleted", { id });
  return 1;
}
