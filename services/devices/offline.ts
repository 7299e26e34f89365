/**
 * Devices going offline, one or many at once (ingest's sweep after a restart or a network
 * outage): the statuses change in a few commits ({@link commitOffline}), and each recipient
 * (every active admin, and a sensor's tenant) gets one notice for all of their sensors that went
 * offline together: the sensor's own `sensor_offline` notice when it is one, a summary naming
 * the count and the stations when they are several. Meters never heard from are not installed
 * yet: silence leaves them `unknown`, with no event and no notice (`goesOffline` in core).
 */
import type { Deps } from "../deps.ts";
import type { OfflineChange } from "../../ingest/contract.ts";
import { getDevices, idsBySerial } from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { commitOffline, offlineCandidates } from "../../db/device_offline.ts";
import { createNotifications, type NewNotification } from "../../db/notifications.ts";
import { getUsers, listUserRows, type StoredUser } from "../../db/users.ts";
import { fleetDevices } from "./fleet_devices.ts";
import { putOutboxEvent } from "../../db/outbox.ts";

/** A device that went offline, as ingest reports it. */
export type OfflineItem = OfflineChange;

/** What {@link markDevicesOffline} did. */
interface OfflineOutcome {
  /** Devices asked about (known ones). */
  devices: number;
  /** Devices that went offline. */
  offline: StoredDevice[];
}

/** Above this many devices, records are taken from the fleet's kept list, not read one by one. */
const FLEET_ABOVE = 500;
/** Stations a summary names at most. */
const NAMED_STATIONS = 5;

/** The stored records of these devices and of their stations, by id. */
async function recordsOf(deps: Deps, ids: readonly number[]): Promise<Map<number, StoredDevice>> {
  if (ids.length > FLEET_ABOVE) {
    return new Map((await fleetDevices(deps.kv)).map((d) => [d.id, d]));
  }
  const devices = await getDevices(deps.kv, ids);
  const parents = [...new Set(devices.flatMap((d) => d.parent_id ?? []))];
  return new Map([...devices, ...await getDevices(deps.kv, parents)].map((d) => [d.id, d]));
}

/** Who is told about these sensors: every active admin and each sensor's active tenant. */
async function recipientsOf(
  deps: Deps,
  sensors: readonly StoredDevice[],
): Promise<{ admins: StoredUser[]; users: Map<number, StoredUser> }> {
  if (sensors.length === 0) return { admins: [], users: new Map() };
  const adminIds = (await listUserRows(deps.kv, "admin")).filter((r) => r.is_active)
    .map((r) => r.id);
  // A fleet's tenants are read in 8 slices at once (each reads 10 accounts at a time).
  const ids = [...new Set([...adminIds, ...sensors.flatMap((s) => s.tenant_id ?? [])])];
  const size = Math.ceil(ids.length / 8);
  const slices = Array.from({ length: 8 }, (_, k) => ids.slice(k * size, (k + 1) * size));
  const users = new Map(
    (await Promise.all(slices.map((slice) => getUsers(deps.kv, slice)))).flatMap((m) => [...m]),
  );
  for (const [id, u] of users) if (!u.is_active) users.delete(id);
  return { admins: adminIds.flatMap((id) => users.get(id) ?? []), users };
}

/**
 * Marks these devices offline (see the module comment); stops between commits once `stop()`
 * says so. Never-heard-from devices, devices already offline and unknown serials are left.
 */
export async function markDevicesOffline(
  deps: Deps,
  items: readonly OfflineItem[],
  stop: () => boolean = () => false,
): Promise<OfflineOutcome> {
  // Only the devices that change are read in full: a fleet of meters that never connected
  // costs a look at the serial index and the status families.
  const ids = await idsBySerial(deps.kv, items.map((i) => i.serial));
  const marks = items.flatMap((i) => {
    const id = ids.get(i.serial.toLowerCase());
    return id === undefined ? [] : [{ id, ts: i.ts, reason: i.reason }];
  });
  const candidates = await offlineCandidates(deps.kv, marks);
  if (candidates.length === 0) return { devices: marks.length, offline: [] };
  const records = await recordsOf(deps, candidates.map((c) => c.id));
  const byId = (id: number) => records.get(id) ?? null;
  const devices = new Map(candidates.flatMap((c) => records.get(c.id) ?? []).map((d) => [d.id, d]));
  const sensors = [...devices.values()].filter((d) => d.type === "sensor");
  const { admins, users } = await recipientsOf(deps, sensors);
  const notifiedOf = (d: StoredDevice): StoredUser[] => {
    if (d.type !== "sensor") return [];
    const tenant = d.tenant_id === null ? undefined : users.get(d.tenant_id);
    return tenant && !admins.includes(tenant) ? [...admins, tenant] : admins;
  };
  const changed = await commitOffline(
    deps.kv,
    candidates.filter((c) => devices.has(c.id)),
    (id) => notifiedOf(devices.get(id)!).map((u) => u.id),
    stop,
  );
  const offline = changed.map((id) => devices.get(id)!);
  // One notice per recipient for all of their sensors that went offline here.
  const perUser = new Map<StoredUser, StoredDevice[]>();
  for (const d of offline) {
    for (const u of notifiedOf(d)) {
      const list = perUser.get(u);
      if (list) list.push(d);
      else perUser.set(u, [d]);
    }
  }
  const at = candidates.reduce((max, c) => Math.max(max, c.ts), 0);
  const notices = [...perUser].map(([user, list]) =>
    list.length === 1 ? sensorNotice(deps, user, list[0], byId) : summaryNotice(user, list, byId)
  );
  await createNotifications(deps.kv, notices, at);
  const meters = offline.filter((d) => d.type === "sensor");
  if (meters.length > 0) {
    // The admins are told by mail too, once for the meters that went offline together.
    await putOutboxEvent(deps.kv, {
      key: `meter_offline:${at}:${meters[0].id}`,
      kind: "meter_offline",
      to: "admins",
      params: { count: meters.length, stations: stationsText(meters, byId) },
    });
  }
  return { devices: marks.length, offline };
}

/** The notice of one sensor, worded in the recipient's language. */
function sensorNotice(
  deps: Deps,
  user: StoredUser,
  device: StoredDevice,
  byId: (id: number) => StoredDevice | null,
): NewNotification {
  const t = deps.i18n.t(user.language);
  const station = device.parent_id === null ? null : byId(device.parent_id);
  return {
    user_id: user.id,
    type: "sensor_offline",
    priority: "high",
    title: t("devices.notifications.sensor_offline_title", { name: device.name }),
    message: t("devices.notifications.sensor_offline_message", {
      name: device.name,
      serial: device.serial_number,
      station: station?.name ?? "",
    }),
    subject_id: String(device.id),
  };
}

/** The sensors' stations with their counts ("Torre Sur: 3, Norte: 2", the first five). */
function stationsText(
  sensors: readonly StoredDevice[],
  byId: (id: number) => StoredDevice | null,
): string {
  const perStation = new Map<string, number>();
  for (const s of sensors) {
    const name = (s.parent_id === null ? null : byId(s.parent_id)?.name) ?? s.name;
    perStation.set(name, (perStation.get(name) ?? 0) + 1);
  }
  const named = [...perStation].slice(0, NAMED_STATIONS).map(([name, n]) => `${name}: ${n}`);
  if (perStation.size > NAMED_STATIONS) named.push("…");
  return named.join(", ");
}

/**
 * One notice about several sensors: their count and stations, worded when read; it resolves
 * once all of them are back online.
 */
function summaryNotice(
  user: StoredUser,
  sensors: readonly StoredDevice[],
  byId: (id: number) => StoredDevice | null,
): NewNotification {
  return {
    user_id: user.id,
    type: "sensor_offline",
    priority: "high",
    title: "",
    message: "",
    subjects: sensors.map((s) => String(s.id)),
    params: {
      title_key: "devices.notifications.sensors_offline_title",
      message_key: "devices.notifications.sensors_offline_message",
      count: sensors.length,
      stations: stationsText(sensors, byId),
    },
    link: user.role === "admin" ? "/admin/devices" : null,
  };
}
