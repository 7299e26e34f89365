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
import { findBySerial, getDevices, type StoredDevice } from "../../db/devices.ts";
import { commitOffline, offlineCandidates } from "../../db/device_offline.ts";
import { createNotifications, type NewNotification } from "../../db/notifications.ts";
import { getUsers, listUserRows, type StoredUser } from "../../db/users.ts";
import { fleetDevices } from "./fleet_devices.ts";

/** A device that went offline, as ingest reports it. */
export type OfflineItem = OfflineChange;

/** What {@link markDevicesOffline} did. */
export interface OfflineOutcome {
  /** Devices asked about (known ones). */
  devices: number;
  /** Devices that went offline. */
  offline: StoredDevice[];
}

/** Above this many serials, devices are found in the fleet's kept list, not one by one. */
const FLEET_ABOVE = 20;
/** Stations a summary names at most. */
const NAMED_STATIONS = 5;

/** The stored devices of these serials (unknown serials left out), first item of each. */
async function devicesOf(
  deps: Deps,
  items: readonly OfflineItem[],
): Promise<{ found: [StoredDevice, OfflineItem][]; byId: (id: number) => StoredDevice | null }> {
  if (items.length > FLEET_ABOVE) {
    const fleet = await fleetDevices(deps.kv);
    const bySerial = new Map(fleet.map((d) => [d.serial_number.toLowerCase(), d]));
    const byId = new Map(fleet.map((d) => [d.id, d]));
    const found = items.flatMap((i) => {
      const d = bySerial.get(i.serial.toLowerCase());
      return d ? [[d, i] as [StoredDevice, OfflineItem]] : [];
    });
    return { found, byId: (id) => byId.get(id) ?? null };
  }
  const devices = await Promise.all(items.map((i) => findBySerial(deps.kv, i.serial)));
  const found = items.flatMap((i, k) => {
    const d = devices[k];
    return d ? [[d, i] as [StoredDevice, OfflineItem]] : [];
  });
  const parents = [...new Set(found.flatMap(([d]) => d.parent_id ?? []))];
  const byId = new Map((await getDevices(deps.kv, parents)).map((d) => [d.id, d]));
  return { found, byId: (id) => byId.get(id) ?? null };
}

/** Who is told about these sensors: every active admin and each sensor's active tenant. */
async function recipientsOf(
  deps: Deps,
  sensors: readonly StoredDevice[],
): Promise<{ admins: StoredUser[]; users: Map<number, StoredUser> }> {
  if (sensors.length === 0) return { admins: [], users: new Map() };
  const adminIds = (await listUserRows(deps.kv, "admin")).filter((r) => r.is_active)
    .map((r) => r.id);
  const users = await getUsers(deps.kv, [...adminIds, ...sensors.map((s) => s.tenant_id)]);
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
  const { found, byId } = await devicesOf(deps, items);
  const candidates = await offlineCandidates(
    deps.kv,
    found.map(([d, i]) => ({ id: d.id, ts: i.ts, reason: i.reason })),
  );
  if (candidates.length === 0) return { devices: found.length, offline: [] };
  const devices = new Map(found.map(([d]) => [d.id, d]));
  const sensors = candidates.map((c) => devices.get(c.id)!).filter((d) => d.type === "sensor");
  const { admins, users } = await recipientsOf(deps, sensors);
  const notifiedOf = (d: StoredDevice): StoredUser[] => {
    if (d.type !== "sensor") return [];
    const tenant = d.tenant_id === null ? undefined : users.get(d.tenant_id);
    return tenant && !admins.includes(tenant) ? [...admins, tenant] : admins;
  };
  const changed = await commitOffline(
    deps.kv,
    candidates,
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
  return { devices: found.length, offline };
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

/**
 * One notice about several sensors: their count and stations ("Torre Sur: 3, Norte: 2", the
 * first five), worded when read; it resolves once all of them are back online.
 */
function summaryNotice(
  user: StoredUser,
  sensors: readonly StoredDevice[],
  byId: (id: number) => StoredDevice | null,
): NewNotification {
  const perStation = new Map<string, number>();
  for (const s of sensors) {
    const name = (s.parent_id === null ? null : byId(s.parent_id)?.name) ?? s.name;
    perStation.set(name, (perStation.get(name) ?? 0) + 1);
  }
  const named = [...perStation].slice(0, NAMED_STATIONS).map(([name, n]) => `${name}: ${n}`);
  if (perStation.size > NAMED_STATIONS) named.push("…");
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
      stations: named.join(", "),
    },
    link: user.role === "admin" ? "/admin/devices" : null,
  };
}
