/**
 * Stations and sensors in Deno KV. Status and last_seen live apart, in `db/device_status.ts`,
 * so that device records change only when someone edits them.
 *
 * Key layout:
 * - `["devices", id]` → {@link StoredDevice} (stations and sensors share the id sequence
 *   `devices`)
 * - `["devices_by_serial", serial lowercased]` → id: a serial number names one device, of
 *   either type (ingest reports status by serial, and the sensor topic lowercases it)
 * - `["devices_by_mqtt_user", username]` → id: MQTT usernames are unique (device login)
 * - `["devices_by_parent", stationId, sensorId]` → sensorId
 * - `["devices_by_customer", customerId, stationId]` → stationId
 * - `["devices_by_tenant", tenantId, sensorId]` → sensorId
 * - `["devices_by_unit", stationId, unitId]` → sensorId: a unit has at most one sensor
 * - `["station_rows", stationId]` → {@link StationSummary}: what the station lists show and
 *   search, so that a list reads one small entry per station and builds full views only for
 *   the page it shows
 * - `["device_counts", "stations" | "sensors" | "units"]` → `Deno.KvU64`: counts kept by
 *   atomic `sum` in the same commit as each device write (a decrement adds 2^64 - n)
 * - `["zone_station_counts", zoneId]` → `Deno.KvU64`: how many stations a pricing zone has,
 *   kept the same way (a station moving zones takes 1 from one and adds 1 to the other)
 * - `["devices_revision"]` → `Deno.KvU64`: 1 added by every device write (a sum, so writers never
 *   conflict on it); readers that keep figures computed from the devices compare it
 * - `["devices_meta", "indexes"]` → the version of the rows and counts above built for the
 *   devices stored before they existed (see {@link ensureDeviceIndexes}): 1 without the zone
 *   counts, 2 with them
 *
 * Consistency: every write is one atomic commit of the record and its index entries, with
 * the unique entries checked. Writing a sensor also rewrites its station unchanged, so that
 * a station write that raced with it (deleting the station, removing the sensor's unit)
 * fails its check and looks again.
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import type { Device, StoredDevice } from "../core/devices.ts";
import { nextId } from "./kv.ts";
import {
  addTo,
  countKey,
  countsOf,
  customerKey,
  deviceKey,
  mqttKey,
  parentKey,
  REVISION_KEY,
  rowKey,
  serialKey,
  stationSummary,
  tenantKey,
  unitKey,
  zoneCountKey,
  zoneOf,
} from "./_device_keys.ts";

/** A field whose value another device already holds. */
type TakenField = "serial_number" | "mqtt_username" | "unit_id";

/** Why a write did not happen. */
export type WriteRefusal =
  | { reason: "not_found" }
  | { reason: "parent_missing" }
  | { reason: "taken"; field: TakenField }
  | { reason: "refused"; key: string; field?: string };

/** The outcome of a write. */
export type WriteResult = { ok: true; device: StoredDevice } | ({ ok: false } & WriteRefusal);

interface IndexEntry {
  key: Deno.KvKey;
  value: number;
  unique?: TakenField;
}

/** The index entries a device owns. */
function indexEntries(d: StoredDevice): IndexEntry[] {
  const out: IndexEntry[] = [
    { key: serialKey(d.serial_number), value: d.id, unique: "serial_number" },
  ];
  if (d.config.mqtt.username) {
    out.push({ key: mqttKey(d.config.mqtt.username), value: d.id, unique: "mqtt_username" });
  }
  if (d.type === "station" && d.customer_id !== null) {
    out.push({ key: customerKey(d.customer_id, d.id), value: d.id });
  }
  if (d.type === "sensor" && d.parent_id !== null) {
    out.push({ key: parentKey(d.parent_id, d.id), value: d.id });
    const unit = d.config.sensor?.unit_id;
    if (unit) out.push({ key: unitKey(d.parent_id, unit), value: d.id, unique: "unit_id" });
  }
  if (d.type === "sensor" && d.tenant_id !== null) {
    out.push({ key: tenantKey(d.tenant_id, d.id), value: d.id });
  }
  return out;
}

const same = (a: Deno.KvKey, b: Deno.KvKey) =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/** Adds the record and index changes from `prev` to `next` to `op`, checking unique entries. */
function stage(op: Deno.AtomicOperation, prev: StoredDevice | null, next: StoredDevice | null) {
  const before = prev ? indexEntries(prev) : [];
  const after = next ? indexEntries(next) : [];
  for (const e of before) {
    if (!after.some((a) => same(a.key, e.key))) op.delete(e.key);
  }
  for (const e of after) {
    const had = before.some((b) => same(b.key, e.key));
    if (e.unique && !had) op.check({ key: e.key, versionstamp: null });
    if (!had) op.set(e.key, e.value);
  }
  const id = (next ?? prev)!.id;
  if (next) op.set(deviceKey(id), next);
  else op.delete(deviceKey(id));
  if (next?.type === "station") op.set(rowKey(id), stationSummary(next));
  else if (prev?.type === "station") op.delete(rowKey(id));
  const a = countsOf(prev), b = countsOf(next);
  for (const name of ["stations", "sensors", "units"] as const) {
    addTo(op, countKey(name), b[name] - a[name]);
  }
  op.sum(REVISION_KEY, 1n);
  const zoneBefore = zoneOf(prev), zoneAfter = zoneOf(next);
  if (zoneBefore !== zoneAfter) {
    if (zoneBefore !== null) addTo(op, zoneCountKey(zoneBefore), -1);
    if (zoneAfter !== null) addTo(op, zoneCountKey(zoneAfter), 1);
  }
}

/** The unique field of `next` that another device holds, or null. */
async function takenField(
  kv: Deno.Kv,
  prev: StoredDevice | null,
  next: StoredDevice,
): Promise<TakenField | null> {
  const before = prev ? indexEntries(prev) : [];
  for (const e of indexEntries(next)) {
    if (!e.unique || before.some((b) => same(b.key, e.key))) continue;
    const holder = (await kv.get<number>(e.key)).value;
    if (holder !== null && holder !== next.id) return e.unique;
  }
  return null;
}

/** Reads a station entry (null entry value when missing or not a station). */
async function stationEntry(kv: Deno.Kv, id: number) {
  const e = await kv.get<StoredDevice>(deviceKey(id));
  return e.value?.type === "station" ? e as Deno.KvEntry<StoredDevice> : null;
}

/**
 * Creates a device. `build` makes the record from the new id and (for a sensor, when
 * `parentId` is given) the station as it is now, or refuses with a locale key; it may be
 * called again when a concurrent write got in between.
 */
export async function createDevice(
  kv: Deno.Kv,
  parentId: number | null,
  build: (id: number, parent: StoredDevice | null) => StoredDevice | WriteRefusal,
  audit?: AuditStamp,
): Promise<WriteResult> {
  const id = await nextId(kv, "devices");
  for (;;) {
    const parent = parentId === null ? null : await stationEntry(kv, parentId);
    if (parentId !== null && !parent) return { ok: false, reason: "parent_missing" };
    const next = build(id, parent?.value ?? null);
    if ("reason" in next) return { ok: false, ...next };
    const op = kv.atomic().check({ key: deviceKey(id), versionstamp: null });
    if (parent) op.check(parent).set(parent.key, parent.value);
    stage(op, null, next);
    if (audit) stageAudit(op, { ...audit, object: `device:${id}` }, null, next);
    if ((await op.commit()).ok) return { ok: true, device: next };
    const field = await takenField(kv, null, next);
    if (field) return { ok: false, reason: "taken", field };
  }
}

/**
 * Stages what else a device write carries into the same commit (a sensor's meter history when
 * its serial changes, see `db/meters.ts`), with the checks of what it read; or refuses.
 */
export type StageAlso = (
  op: Deno.AtomicOperation,
  cur: StoredDevice,
  next: StoredDevice,
) => Promise<WriteRefusal | void>;

/**
 * Changes a device. `mutate` gets the current record and, for a sensor, its station as they
 * are now, and answers the next record or a refusal; it may run again after a concurrent
 * write. Anything else `mutate` reads about a station (its unit bindings) is covered by the
 * station's own check: sensor writes rewrite their station. `also` adds other keys to the
 * commit (it runs again with `mutate`).
 */
export async function updateDevice(
  kv: Deno.Kv,
  id: number,
  mutate: (
    cur: StoredDevice,
    parent: StoredDevice | null,
  ) => Promise<StoredDevice | WriteRefusal> | StoredDevice | WriteRefusal,
  also?: StageAlso,
  audit?: AuditStamp,
): Promise<WriteResult> {
  for (;;) {
    const cur = await kv.get<StoredDevice>(deviceKey(id));
    if (!cur.value) return { ok: false, reason: "not_found" };
    const parentId = cur.value.type === "sensor" ? cur.value.parent_id : null;
    const parent = parentId === null ? null : await stationEntry(kv, parentId);
    if (parentId !== null && !parent) return { ok: false, reason: "parent_missing" };
    const next = await mutate(cur.value, parent?.value ?? null);
    if ("reason" in next) return { ok: false, ...next };
    const op = kv.atomic().check(cur);
    if (parent) op.check(parent).set(parent.key, parent.value);
    stage(op, cur.value, { ...next, id });
    if (audit) stageAudit(op, audit, cur.value, { ...next, id });
    const refused = also ? await also(op, cur.value, { ...next, id }) : undefined;
    if (refused) return { ok: false, ...refused };
    if ((await op.commit()).ok) return { ok: true, device: { ...next, id } };
    const field = await takenField(kv, cur.value, next);
    if (field) return { ok: false, reason: "taken", field };
  }
}

/**
 * Deletes a device and its index entries. A station is refused (`has_sensors`) while it
 * has sensors. Answers the deleted record.
 */
export async function deleteDevice(
  kv: Deno.Kv,
  id: number,
  audit?: AuditStamp,
): Promise<WriteResult> {
  for (;;) {
    const cur = await kv.get<StoredDevice>(deviceKey(id));
    if (!cur.value) return { ok: false, reason: "not_found" };
    const op = kv.atomic().check(cur);
    if (cur.value.type === "station") {
      if ((await sensorIdsOf(kv, id)).length > 0) {
        return { ok: false, reason: "refused", key: "has_sensors" };
      }
    } else if (cur.value.parent_id !== null) {
      const parent = await stationEntry(kv, cur.value.parent_id);
      if (parent) op.check(parent).set(parent.key, parent.value);
    }
    stage(op, cur.value, null);
    if (audit) stageAudit(op, audit, cur.value, null);
    if ((await op.commit()).ok) return { ok: true, device: cur.value };
  }
}

/** Reads one device. */
export async function getDevice(kv: Deno.Kv, id: number): Promise<StoredDevice | null> {
  return (await kv.get<StoredDevice>(deviceKey(id))).value;
}

/** Sensor `sensorId` when it is a sensor of station `stationId`, else null. */
export async function getStationSensor(
  kv: Deno.Kv,
  stationId: number,
  sensorId: number,
): Promise<StoredDevice | null> {
  const d = await getDevice(kv, sensorId);
  return d?.type === "sensor" && d.parent_id === stationId ? d : null;
}

/** Reads devices by id (missing ones are left out), in the order asked. */
export async function getDevices(kv: Deno.Kv, ids: readonly number[]): Promise<StoredDevice[]> {
  const out: StoredDevice[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const chunk = await kv.getMany<StoredDevice[]>(ids.slice(i, i + 10).map(deviceKey));
    for (const e of chunk) if (e.value) out.push(e.value);
  }
  return out;
}

/** Every device, oldest first, optionally of one type. */
export async function listDevices(
  kv: Deno.Kv,
  type?: Device["type"],
): Promise<StoredDevice[]> {
  const out: StoredDevice[] = [];
  for await (const e of kv.list<StoredDevice>({ prefix: ["devices"] })) {
    if (!type || e.value.type === type) out.push(e.value);
  }
  return out;
}

async function idsUnder(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number[]> {
  const out: number[] = [];
  for await (const e of kv.list<number>({ prefix })) out.push(e.value);
  return out;
}

/** Ids of a station's sensors. */
export function sensorIdsOf(kv: Deno.Kv, stationId: number): Promise<number[]> {
  return idsUnder(kv, ["devices_by_parent", stationId]);
}

/** Ids of the stations of a customer. */
export function stationIdsOfCustomer(kv: Deno.Kv, customerId: number): Promise<number[]> {
  return idsUnder(kv, ["devices_by_customer", customerId]);
}

/** Ids of the sensors of a tenant. */
export function sensorIdsOfTenant(kv: Deno.Kv, tenantId: number): Promise<number[]> {
  return idsUnder(kv, ["devices_by_tenant", tenantId]);
}

/** Which sensor each unit of a station is bound to: unit id → sensor id. */
export async function unitBindings(kv: Deno.Kv, stationId: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const e of kv.list<number>({ prefix: ["devices_by_unit", stationId] })) {
    out.set(String(e.key[2]), e.value);
  }
  return out;
}

/** The device with a serial number (any letter case), or null. */
export async function findBySerial(kv: Deno.Kv, serial: string): Promise<StoredDevice | null> {
  const id = (await kv.get<number>(serialKey(serial))).value;
  return id === null ? null : getDevice(kv, id);
}

/** The id of the device with a serial number (any letter case), or null. */
export async function idBySerial(kv: Deno.Kv, serial: string): Promise<number | null> {
  return (await kv.get<number>(serialKey(serial))).value;
}

/**
 * The ids of the devices with these serial numbers (any letter case), by lowercased serial;
 * unknown ones left out. Many serials are found with one scan of the serial index (small
 * entries), a few with point reads.
 */
export async function idsBySerial(
  kv: Deno.Kv,
  serials: readonly string[],
): Promise<Map<string, number>> {
  const wanted = new Set(serials.map((s) => s.toLowerCase()));
  const out = new Map<string, number>();
  if (wanted.size > 200) {
    for await (const e of kv.list<number>({ prefix: ["devices_by_serial"] })) {
      const serial = e.key[1] as string;
      if (wanted.has(serial)) out.set(serial, e.value);
    }
    return out;
  }
  const list = [...wanted];
  for (let i = 0; i < list.length; i += 10) {
    const chunk = list.slice(i, i + 10);
    const got = await kv.getMany<number[]>(chunk.map(serialKey));
    chunk.forEach((serial, j) => {
      if (got[j].value !== null) out.set(serial, got[j].value!);
    });
  }
  return out;
}

/** The device logging in with an MQTT username, or null. */
export async function findByMqttUsername(
  kv: Deno.Kv,
  username: string,
): Promise<StoredDevice | null> {
  const id = (await kv.get<number>(mqttKey(username))).value;
  return id === null ? null : getDevice(kv, id);
}
