/**
 * Station and sensor use cases: reading what a caller may see (see `device_views.ts`),
 * creating, editing and deleting (admin), assigning customers and tenants, applying a
 * registration's access-code assignments, and the access-code checklists.
 *
 * Changes answer {@link DeviceChange}: the served device, or a status with a locale key
 * and flat field errors (see `core/device_rules.ts`).
 */
import { getZone } from "../db/zones.ts";
import type { Deps } from "./deps.ts";
import type { User } from "../core/types.ts";
import type { FieldErrors } from "../core/schemas.ts";
import {
  type DeviceStats,
  type DeviceView,
  sensorStationId,
  sensorTopicPrefix,
  stationTopicPrefix,
} from "../core/devices.ts";
import { locationJson, type SensorInput, type StationInput } from "../core/device_rules.ts";
import {
  createDevice,
  deleteDevice,
  findBySerial,
  getDevice,
  getDevices,
  listDevices,
  sensorIdsOf,
  type StoredDevice,
  unitBindings,
  updateDevice,
  type WriteResult,
} from "../db/devices.ts";
import { deleteStatusOf, readStatuses, type StatusNow } from "../db/device_status.ts";
import { resolveBySubject } from "../db/notifications.ts";
import { getUser } from "../db/users.ts";
import { hashMqttPassword, openMqttPassword, sealMqttPassword } from "./platform/mqtt_passwords.ts";
import {
  dynsecEnabled,
  provisionDevice,
  PROVISIONING_KEYS,
  provisioningKey,
  unprovisionDevice,
} from "./device_provisioning.ts";
import { forgetSensorCertificate } from "./sensor_certificates.ts";
import { accessChecker, type Scope, scopeOf, serve } from "./device_views.ts";

const DV = "devices.validation.";
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

/** Filters of GET /api/devices. */
export interface DeviceFilter {
  type?: "station" | "sensor";
  customer_id?: number | null;
  tenant_id?: number | null;
}

// ---- reading ---------------------------------------------------------------------------------

/** Devices by id of a scope (full and basic). */
function visible(scope: Scope): Map<number, StoredDevice> {
  return new Map([...scope.basic, ...scope.full]);
}

/**
 * The devices `viewer` may see, filtered by type, customer (stations of that customer and
 * their sensors) and tenant (that tenant's sensors and their stations); oldest first.
 */
export async function listDeviceViews(
  deps: Deps,
  viewer: User,
  filter: DeviceFilter = {},
): Promise<DeviceView[]> {
  const scope = await scopeOf(deps, viewer);
  const all = visible(scope);
  const stationOf = (d: StoredDevice) =>
    d.type === "station" ? d : d.parent_id === null ? undefined : all.get(d.parent_id);
  const tenantStations = new Set<number>();
  if (filter.tenant_id) {
    for (const d of all.values()) {
      if (d.type === "sensor" && d.tenant_id === filter.tenant_id && d.parent_id !== null) {
        tenantStations.add(d.parent_id);
      }
    }
  }
  const chosen = [...all.values()]
    .filter((d) => !filter.type || d.type === filter.type)
    .filter((d) => !filter.customer_id || stationOf(d)?.customer_id === filter.customer_id)
    .filter((d) =>
      !filter.tenant_id ||
      (d.type === "sensor" ? d.tenant_id === filter.tenant_id : tenantStations.has(d.id))
    )
    .sort((a, b) => a.id - b.id);
  return serve(deps, viewer, chosen, new Set(scope.basic.keys()));
}

/** One device (station or sensor) as `viewer` may see it, or null (missing or not theirs). */
export async function getDeviceView(
  deps: Deps,
  viewer: User,
  id: number,
): Promise<DeviceView | null> {
  const d = await getDevice(deps.kv, id);
  const access = d ? await accessChecker(deps, viewer)(d) : null;
  if (!d || !access) return null;
  return (await serve(deps, viewer, [d], new Set(access === "basic" ? [d.id] : [])))[0];
}

/** A station's sensors as `viewer` may see them; null when the station is not theirs. */
export async function listSensorViews(
  deps: Deps,
  viewer: User,
  stationId: number,
): Promise<DeviceView[] | null> {
  const station = await getDevice(deps.kv, stationId);
  const may = accessChecker(deps, viewer);
  if (station?.type !== "station" || !(await may(station))) return null;
  const sensors: StoredDevice[] = [];
  for (const s of await getDevices(deps.kv, await sensorIdsOf(deps.kv, stationId))) {
    if ((await may(s)) === "full") sensors.push(s);
  }
  return serve(deps, viewer, sensors.sort((a, b) => a.id - b.id));
}

/** One sensor of a station as `viewer` may see it, or null. */
export async function getSensorView(
  deps: Deps,
  viewer: User,
  stationId: number,
  sensorId: number,
): Promise<DeviceView | null> {
  const d = await getDevice(deps.kv, sensorId);
  if (!d || d.type !== "sensor" || d.parent_id !== stationId) return null;
  if ((await accessChecker(deps, viewer)(d)) !== "full") return null;
  return (await serve(deps, viewer, [d]))[0];
}

/** Counts of the devices `viewer` may see (onlineCount: devices whose own status is online). */
export async function deviceStats(deps: Deps, viewer: User): Promise<DeviceStats> {
  const scope = await scopeOf(deps, viewer);
  const all = [...visible(scope).values()];
  const status = await readStatuses(deps.kv, all.map((d) => d.id));
  const sensors = [...scope.full.values()].filter((d) => d.type === "sensor");
  const stations = all.filter((d) => d.type === "station");
  const unitCount = viewer.role === "user"
    ? sensors.filter((s) => s.config.sensor?.unit_id).length
    : stations.reduce((n, s) => n + (s.config.station?.units.length ?? 0), 0);
  return {
    stationCount: stations.length,
    sensorCount: sensors.length,
    onlineCount: all.filter((d) => status.get(d.id)?.status === "online").length,
    unitCount,
  };
}

/**
 * Own status and last_seen of devices named by id (numbers) or serial number (strings; a
 * string of digits that is no serial number is tried as an id), keyed by serial number;
 * devices the caller may not see are left out.
 */
export async function deviceStatuses(
  deps: Deps,
  viewer: User,
  refs: readonly (number | string)[],
): Promise<Record<string, StatusNow>> {
  const may = accessChecker(deps, viewer);
  const chosen = new Map<number, StoredDevice>();
  for (const ref of new Set(refs)) {
    let d = typeof ref === "number"
      ? await getDevice(deps.kv, ref)
      : await findBySerial(deps.kv, ref);
    if (!d && typeof ref === "string" && /^\d{1,15}$/.test(ref)) {
      d = await getDevice(deps.kv, Number(ref));
    }
    if (d && (await may(d))) chosen.set(d.id, d);
  }
  const status = await readStatuses(deps.kv, [...chosen.keys()]);
  const out: Record<string, StatusNow> = {};
  for (const d of chosen.values()) out[d.serial_number] = status.get(d.id)!;
  return out;
}

/** Own status and last_seen of one device `viewer` may see, or null. */
export async function deviceStatusView(
  deps: Deps,
  viewer: User,
  id: number,
): Promise<StatusNow | null> {
  const d = await getDevice(deps.kv, id);
  if (!d || !(await accessChecker(deps, viewer)(d))) return null;
  return (await readStatuses(deps.kv, [id])).get(id)!;
}

// ---- changes ---------------------------------------------------------------------------------

const TAKEN_KEYS: Record<string, string> = {
  serial_number: `${DV}serial_taken`,
  mqtt_username: `${DV}mqtt_username_taken`,
  unit_id: `${DV}unit_taken`,
};

/** A field refusal. */
const fieldError = (field: string, key: string): DeviceChange & { ok: false } => ({
  ok: false,
  status: 400,
  key,
  errors: { [field]: key },
});

async function answer(deps: Deps, actor: User, res: WriteResult, missing: string) {
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

// ---- MQTT passwords and the broker's accounts -------------------------------------------------

/** The stored forms of an MQTT password: its hash (device login) and its sealed copy. */
type PasswordFields = Pick<StoredDevice, "mqtt_password_hash" | "mqtt_password_sealed">;

/** The stored forms of a new password, or null when it is blank (the current one stays). */
async function passwordFields(
  deps: Deps,
  password: string | undefined,
): Promise<PasswordFields | null> {
  if (!password) return null;
  return {
    mqtt_password_hash: await hashMqttPassword(password),
    mqtt_password_sealed: await sealMqttPassword(deps.secret, password),
  };
}

/** The password fields of a stored device (a device from before sealing has the hash only). */
function storedPassword(d: StoredDevice): PasswordFields {
  return d.mqtt_password_sealed === undefined
    ? { mqtt_password_hash: d.mqtt_password_hash }
    : { mqtt_password_hash: d.mqtt_password_hash, mqtt_password_sealed: d.mqtt_password_sealed };
}

/** The MQTT password of a device in clear, or null when it was set before it was kept sealed. */
export function deviceMqttPassword(deps: Deps, d: StoredDevice): Promise<string | null> {
  return d.mqtt_password_sealed
    ? openMqttPassword(deps.secret, d.mqtt_password_sealed)
    : Promise.resolve(null);
}

/** Whether the broker's account of a device must change from `prev` to `next`. */
const accountChanged = (prev: StoredDevice, next: StoredDevice) =>
  prev.config.mqtt.username !== next.config.mqtt.username ||
  prev.config.mqtt.topic_prefix !== next.config.mqtt.topic_prefix ||
  prev.mqtt_password_hash !== next.mqtt_password_hash;

/** Tells the broker the device's account as stored; answers a locale key on failure. */
export async function provisionStored(
  deps: Deps,
  d: StoredDevice,
  formerUsername: string | null,
): Promise<string | null> {
  const password = await deviceMqttPassword(deps, d);
  if (password === null) return PROVISIONING_KEYS.password_missing;
  try {
    await provisionDevice(deps, {
      id: d.id,
      username: d.config.mqtt.username,
      password,
      prefix: d.config.mqtt.topic_prefix.replace(/\/+$/, ""),
    }, formerUsername);
    return null;
  } catch (e) {
    deps.log.log("error", "broker account not provisioned", { id: d.id, error: String(e) });
    return provisioningKey(e);
  }
}

/**
 * Brings the broker along after a create (`prev` null) or an edit, when MQTT_DYNSEC is on.
 *
 * Failure policy: the change is written first (the device id and the unique checks come
 * from the store), then the broker is told. When the broker refuses or cannot be reached,
 * the write is undone — a created device is deleted again, an edited one gets its previous
 * record back and the broker its previous account (best effort) — and the admin gets a
 * 502 with the reason. So the portal and the broker never disagree silently, and there is
 * no "not provisioned" state waiting for a retry: the admin saves again once the broker is
 * back. Deletes go the other way round (see {@link deleteSensor}).
 */
async function followBroker(
  deps: Deps,
  saved: StoredDevice,
  prev: StoredDevice | null,
): Promise<string | null> {
  if (!dynsecEnabled(deps) || (prev && !accountChanged(prev, saved))) return null;
  const failed = await provisionStored(deps, saved, prev?.config.mqtt.username ?? null);
  if (!failed) return null;
  if (prev) {
    await updateDevice(deps.kv, saved.id, (cur) => ({ ...prev, parent_id: cur.parent_id }));
    if (prev.mqtt_password_sealed) {
      await provisionStored(deps, prev, saved.config.mqtt.username);
    }
  } else {
    await deleteDevice(deps.kv, saved.id);
    await unprovisionDevice(deps, saved.id, saved.config.mqtt.username).catch((e) =>
      deps.log.log("warn", "broker account of an undone device not removed", {
        id: saved.id,
        error: String(e),
      })
    );
  }
  return failed;
}

/** Removes a device's broker account before its record goes; a locale key on failure. */
async function leaveBroker(deps: Deps, d: StoredDevice): Promise<string | null> {
  if (!dynsecEnabled(deps)) return null;
  try {
    await unprovisionDevice(deps, d.id, d.config.mqtt.username);
    return null;
  } catch (e) {
    deps.log.log("error", "broker account not removed", { id: d.id, error: String(e) });
    return provisioningKey(e);
  }
}

/** The 502 of a broker that was not brought along. */
const brokerFailure = (key: string) => ({ ok: false as const, status: 502 as const, key });

/** A 400 naming `zone_id` when the station's pricing zone does not exist, else null. */
async function missingZone(deps: Deps, input: StationInput): Promise<DeviceChange | null> {
  if (input.zone_id === null || await getZone(deps.kv, input.zone_id)) return null;
  const key = "devices.validation.zone_invalid";
  return { ok: false, status: 400, key, errors: { zone_id: key } };
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
): Promise<DeviceChange> {
  const noZone = await missingZone(deps, input);
  if (noZone) return noZone;
  const pw = (await passwordFields(deps, input.config.mqtt.password)) ??
    { mqtt_password_hash: await hashMqttPassword("") };
  const res = await createDevice(
    deps.kv,
    null,
    (id) => stationRecord(id, input, pw, deps.now(), null),
  );
  if (res.ok) {
    const failed = await followBroker(deps, res.device, null);
    if (failed) return brokerFailure(failed);
    deps.log.log("info", "station created", { id: res.device.id });
  }
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
): Promise<DeviceChange> {
  const noZone = await missingZone(deps, input);
  if (noZone) return noZone;
  const pw = await passwordFields(deps, input.config.mqtt.password);
  let prev: StoredDevice | null = null;
  const res = await updateDevice(deps.kv, id, async (cur) => {
    if (cur.type !== "station") return { reason: "not_found" };
    prev = cur;
    const kept = new Set(input.config.station.units.map((u) => u.id));
    for (const unit of (await unitBindings(deps.kv, id)).keys()) {
      if (!kept.has(unit)) return { reason: "refused", key: `${DV}unit_in_use`, field: "units" };
    }
    return stationRecord(id, input, pw ?? storedPassword(cur), deps.now(), cur);
  });
  if (res.ok) {
    const failed = await followBroker(deps, res.device, prev);
    if (failed) return brokerFailure(failed);
    for (const sensorId of await sensorIdsOf(deps.kv, id)) {
      await updateDevice(deps.kv, sensorId, (s) => ({
        ...s,
        station_id: sensorStationId(res.device.station_id, s.serial_number),
      }));
    }
  }
  return answer(deps, actor, res, STATION_NOT_FOUND);
}

/** Forgets a deleted device's status and resolves its open offline notifications. */
async function forgetStatus(deps: Deps, id: number) {
  const rec = await deleteStatusOf(deps.kv, id);
  for (const userId of rec.notified) {
    await resolveBySubject(deps.kv, userId, "sensor_offline", String(id));
  }
}

/** Deletes a station (admin); refused (409) while it has sensors. */
export async function deleteStation(deps: Deps, id: number): Promise<DeviceAction> {
  const cur = await getDevice(deps.kv, id);
  if (!cur || cur.type !== "station") return { ok: false, status: 404, key: STATION_NOT_FOUND };
  if ((await sensorIdsOf(deps.kv, id)).length > 0) {
    return { ok: false, status: 409, key: STATION_HAS_SENSORS };
  }
  const left = await leaveBroker(deps, cur);
  if (left) return brokerFailure(left);
  const res = await deleteDevice(deps.kv, id);
  if (!res.ok) {
    return res.reason === "refused"
      ? { ok: false, status: 409, key: STATION_HAS_SENSORS }
      : { ok: false, status: 404, key: STATION_NOT_FOUND };
  }
  await forgetStatus(deps, id);
  deps.log.log("info", "station deleted", { id });
  return { ok: true, count: 1 };
}

/** Whether `id` is an existing tenant account. */
async function isTenant(deps: Deps, id: number): Promise<boolean> {
  return (await getUser(deps.kv, id))?.role === "user";
}

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
      sensor: { unit_id: unitId, tenant_id: tenant, ip_address: input.config.sensor.ip_address },
    },
    created_at: prev?.created_at ?? now,
    updated_at: now,
    ...pw,
  };
}

/** Adds a sensor to a station (admin): unit of that station, free; tenant an existing tenant. */
export async function createSensor(
  deps: Deps,
  actor: User,
  stationId: number,
  input: SensorInput,
): Promise<DeviceChange> {
  const tenant = input.config.sensor.tenant_id;
  if (tenant !== null && !(await isTenant(deps, tenant))) {
    return fieldError("tenant_id", `${DV}tenant_invalid`);
  }
  const pw = (await passwordFields(deps, input.config.mqtt.password)) ??
    { mqtt_password_hash: await hashMqttPassword("") };
  const res = await createDevice(
    deps.kv,
    stationId,
    (id, station) => sensorRecord(id, station!, input, pw, deps.now(), null),
  );
  if (res.ok) {
    const failed = await followBroker(deps, res.device, null);
    if (failed) return brokerFailure(failed);
    deps.log.log("info", "sensor created", { id: res.device.id, station: stationId });
  }
  return answer(deps, actor, res, SENSOR_NOT_FOUND);
}

/** Edits a sensor of a station (admin); a blank password keeps the current one. */
export async function updateSensor(
  deps: Deps,
  actor: User,
  stationId: number,
  sensorId: number,
  input: SensorInput,
): Promise<DeviceChange> {
  const tenant = input.config.sensor.tenant_id;
  if (tenant !== null && !(await isTenant(deps, tenant))) {
    return fieldError("tenant_id", `${DV}tenant_invalid`);
  }
  const pw = await passwordFields(deps, input.config.mqtt.password);
  let prev: StoredDevice | null = null;
  const res = await updateDevice(deps.kv, sensorId, (cur, station) => {
    if (cur.type !== "sensor" || cur.parent_id !== stationId || !station) {
      return { reason: "not_found" };
    }
    prev = cur;
    return sensorRecord(sensorId, station, input, pw ?? storedPassword(cur), deps.now(), cur);
  });
  if (res.ok) {
    const failed = await followBroker(deps, res.device, prev);
    if (failed) return brokerFailure(failed);
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
): Promise<DeviceAction> {
  const cur = await getDevice(deps.kv, sensorId);
  if (!cur || cur.type !== "sensor" || cur.parent_id !== stationId) {
    return { ok: false, status: 404, key: SENSOR_NOT_FOUND };
  }
  const left = await leaveBroker(deps, cur);
  if (left) return brokerFailure(left);
  const res = await deleteDevice(deps.kv, sensorId);
  if (!res.ok) return { ok: false, status: 404, key: SENSOR_NOT_FOUND };
  await forgetSensorCertificate(deps, sensorId).catch((e) =>
    deps.log.log("error", "sensor certificate not forgotten", { id: sensorId, error: String(e) })
  );
  await forgetStatus(deps, sensorId);
  deps.log.log("info", "sensor deleted", { id: sensorId, station: stationId });
  return { ok: true, count: 1 };
}

// ---- assignments -----------------------------------------------------------------------------

/** Sets the customer of stations (null removes it); answers how many changed. */
async function setCustomer(deps: Deps, stationIds: readonly number[], customerId: number | null) {
  let n = 0;
  for (const id of stationIds) {
    const res = await updateDevice(
      deps.kv,
      id,
      (cur) =>
        cur.type === "station"
          ? { ...cur, customer_id: customerId, updated_at: deps.now() }
          : { reason: "not_found" },
    );
    if (res.ok) n++;
  }
  return n;
}

/** Sets the tenant of sensors (null removes it); answers how many changed. */
async function setTenant(deps: Deps, sensorIds: readonly number[], tenantId: number | null) {
  let n = 0;
  for (const id of sensorIds) {
    const res = await updateDevice(deps.kv, id, (cur) =>
      cur.type === "sensor"
        ? {
          ...cur,
          tenant_id: tenantId,
          config: { ...cur.config, sensor: { ...cur.config.sensor!, tenant_id: tenantId } },
          updated_at: deps.now(),
        }
        : { reason: "not_found" });
    if (res.ok) n++;
  }
  return n;
}

/** Checks that every id is a device of `type`; answers the missing ones. */
async function missingOf(deps: Deps, ids: readonly number[], type: StoredDevice["type"]) {
  const out: number[] = [];
  for (const id of ids) if ((await getDevice(deps.kv, id))?.type !== type) out.push(id);
  return out;
}

/** POST /api/devices/assign-customer: the customer becomes the stations' customer. */
export async function assignCustomer(
  deps: Deps,
  customerId: number,
  stationIds: readonly number[],
): Promise<DeviceAction> {
  if ((await getUser(deps.kv, customerId))?.role !== "customer") {
    return { ...fieldError("customer_id", `${DV}customer_invalid`) };
  }
  if ((await missingOf(deps, stationIds, "station")).length) {
    return { ...fieldError("station_ids", `${DV}stations_invalid`) };
  }
  return { ok: true, count: await setCustomer(deps, [...new Set(stationIds)], customerId) };
}

/** POST /api/devices/assign-tenant: the tenant becomes the sensors' (and units') tenant. */
export async function assignTenant(
  deps: Deps,
  tenantId: number,
  sensorIds: readonly number[],
): Promise<DeviceAction> {
  if (!(await isTenant(deps, tenantId))) {
    return { ...fieldError("tenant_id", `${DV}tenant_invalid`) };
  }
  if ((await missingOf(deps, sensorIds, "sensor")).length) {
    return { ...fieldError("sensor_ids", `${DV}sensors_invalid`) };
  }
  return { ok: true, count: await setTenant(deps, [...new Set(sensorIds)], tenantId) };
}

/** POST /api/devices/remove-customer/{id}: the station has no customer any more. */
export async function removeCustomer(deps: Deps, stationId: number): Promise<DeviceAction> {
  if ((await getDevice(deps.kv, stationId))?.type !== "station") {
    return { ok: false, status: 404, key: STATION_NOT_FOUND };
  }
  return { ok: true, count: await setCustomer(deps, [stationId], null) };
}

/** POST /api/devices/remove-tenant/{id}: the sensor (and its unit) has no tenant any more. */
export async function removeTenant(deps: Deps, sensorId: number): Promise<DeviceAction> {
  if ((await getDevice(deps.kv, sensorId))?.type !== "sensor") {
    return { ok: false, status: 404, key: SENSOR_NOT_FOUND };
  }
  return { ok: true, count: await setTenant(deps, [sensorId], null) };
}

/**
 * Applies the assignments an account got from its access code: a customer becomes the
 * customer of the listed stations; a tenant becomes the tenant of each listed
 * `sensorId:unitId` whose sensor still measures that unit. Entries that no longer match a
 * device are skipped and answered. Safe to run again.
 */
export async function applyRegistrationAssignments(
  deps: Deps,
  user: User,
): Promise<{ applied: number; skipped: string[] }> {
  const skipped: string[] = [];
  let applied = 0;
  if (user.role === "customer") {
    for (const id of user.assignments.stations) {
      if ((await setCustomer(deps, [id], user.id)) === 1) applied++;
      else skipped.push(String(id));
    }
  } else if (user.role === "user") {
    for (const sel of user.assignments.units) {
      const [sensorPart, unitId] = sel.split(":");
      const sensor = await getDevice(deps.kv, Number(sensorPart));
      if (sensor?.type === "sensor" && sensor.config.sensor?.unit_id === unitId) {
        if ((await setTenant(deps, [sensor.id], user.id)) === 1) {
          applied++;
          continue;
        }
      }
      skipped.push(sel);
    }
  }
  return { applied, skipped };
}

// ---- access-code checklists --------------------------------------------------------------

/** A station an access code can assign. */
export interface StationChoice {
  id: number;
  label: string;
}

/** A unit (with a sensor) an access code can assign; `value` is `sensorId:unitId`. */
export interface UnitChoice {
  value: string;
  label: string;
}

/**
 * What the Create Access Code checklists offer: every station (customers), and the unit of
 * every sensor that has one (tenants), as `sensorId:unitId`, in creation order.
 */
export async function accessCodeChoices(
  deps: Deps,
): Promise<{ stations: StationChoice[]; units: UnitChoice[] }> {
  const devices = await listDevices(deps.kv);
  const byId = new Map(devices.map((d) => [d.id, d]));
  const stations = devices.filter((d) => d.type === "station")
    .map((d) => ({ id: d.id, label: `${d.name} (${d.serial_number})` }));
  const units: UnitChoice[] = [];
  for (const s of devices) {
    const unitId = s.config.sensor?.unit_id;
    if (s.type !== "sensor" || !unitId || s.parent_id === null) continue;
    const station = byId.get(s.parent_id);
    const unit = station?.config.station?.units.find((u) => u.id === unitId);
    units.push({
      value: `${s.id}:${unitId}`,
      label: `${station?.name ?? "?"} · ${unit?.name ?? unitId} · ${s.name}`,
    });
  }
  return { stations, units };
}
