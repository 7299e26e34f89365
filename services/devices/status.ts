/**
 * Device status for ingest, over KV: the {@link StatusSink} (last_seen batched in memory
 * and flushed, online/offline transitions with disconnect events and sensor_offline
 * notifications, many devices going offline at once in bulk: `offline.ts`) and the
 * {@link DeviceDirectory} (devices, prefixes, MQTT logins).
 */
import type { Deps } from "../deps.ts";
import { type DisconnectEvent, type StoredDevice } from "../../core/devices.ts";
import type {
  DeviceDirectory,
  IngestDevice,
  OfflineReason,
  StatusSink,
} from "../../ingest/contract.ts";
import { findByMqttUsername, findBySerial, idBySerial, listDevices } from "../../db/devices.ts";
import { listDisconnectEvents, markOnline, recordLastSeen } from "../../db/device_status.ts";
import { devicesRevision } from "../../db/device_lists.ts";
import { resolveBySubject } from "../../db/notifications.ts";
import { verifyMqttPassword } from "../platform/mqtt_passwords.ts";
import { markDevicesOffline, type OfflineItem } from "./offline.ts";

/** The status sink with its batching controls. */
interface DeviceStatusService extends StatusSink {
  /** Many devices went offline at once (a sweep): handled in bulk. */
  offlineMany(items: readonly OfflineItem[]): Promise<void>;
  /** Writes the pending last_seen times now. */
  flush(): Promise<void>;
  /**
   * Shutting down: bulk transitions under way stop at their next commit (the devices left keep
   * their status until a sweep after the restart) and later ones do nothing.
   */
  interrupt(): void;
  /** Stops the flush timer and flushes what is pending. */
  close(): Promise<void>;
}

/** Options of {@link createStatusService}. */
interface StatusServiceOptions {
  /** How long seen() times wait before they are written (ms); default 5000. */
  flushMs?: number;
  /** How long a serial number → id lookup is reused (ms); default 60000. */
  cacheMs?: number;
}

/** Runs tasks for one key one after another (status changes of one device stay ordered). */
function serialQueue() {
  const tails = new Map<string, Promise<void>>();
  return (key: string, task: () => Promise<void>): Promise<void> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(task, task);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/**
 * The KV-backed {@link StatusSink}. `seen()` only records the time in memory; the times are
 * written together after `flushMs` (or on `flush()`/`close()`). `offline()` and
 * `offlineMany()` open a disconnect event per device and, for sensors, notify every admin and
 * each sensor's tenant once for all of their sensors that went offline together (high
 * priority, in each recipient's language); a device never heard from stays unknown when it is
 * merely silent. `online()` closes the event with its duration and releases those
 * notifications.
 */
export function createStatusService(
  deps: Deps,
  options: StatusServiceOptions = {},
): DeviceStatusService {
  const flushMs = options.flushMs ?? 5000;
  const cacheMs = options.cacheMs ?? 60_000;
  let pending = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const ids = new Map<string, { id: number; at: number }>();
  const queue = serialQueue();

  /** The id of a serial for last_seen writes; found ids are reused for `cacheMs`. */
  async function cachedId(serial: string): Promise<number | null> {
    const key = serial.toLowerCase();
    const hit = ids.get(key);
    const now = deps.now();
    if (hit && now - hit.at < cacheMs) return hit.id;
    const id = await idBySerial(deps.kv, serial);
    if (id === null) ids.delete(key);
    else ids.set(key, { id, at: now });
    return id;
  }

  async function flush(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const rows: [number, number][] = [];
    for (const [serial, ts] of batch) {
      const id = await cachedId(serial);
      if (id !== null) rows.push([id, ts]);
    }
    await recordLastSeen(deps.kv, rows);
  }

  let interrupted = false;
  const stop = () => interrupted;

  async function offline(items: readonly OfflineItem[]): Promise<void> {
    const t0 = Date.now();
    const done = await markDevicesOffline(deps, items, stop);
    if (items.length === 1) {
      const [d] = done.offline;
      if (d) {
        deps.log.log("info", "device offline", {
          id: d.id,
          serial: items[0].serial,
          reason: items[0].reason,
        });
      }
      return;
    }
    deps.log.log("info", "offline sweep", {
      devices: items.length,
      offline: done.offline.length,
      ms: Date.now() - t0,
    });
  }

  return {
    seen(serial, ts) {
      const prev = pending.get(serial);
      if (prev === undefined || ts > prev) pending.set(serial, ts);
      if (timer === null) {
        const t = setTimeout(() => {
          timer = null;
          flush().catch((e) =>
            deps.log.log("error", "last_seen flush failed", { error: String(e) })
          );
        }, flushMs);
        Deno.unrefTimer(t);
        timer = t;
      }
    },

    online(serial, ts) {
      return queue(serial.toLowerCase(), async () => {
        const device = await findBySerial(deps.kv, serial);
        if (!device) return;
        const id = device.id;
        const change = await markOnline(deps.kv, id, ts);
        if (!change.changed) return;
        for (const userId of change.notified) {
          await resolveBySubject(deps.kv, userId, "sensor_offline", String(id));
        }
        deps.log.log("info", "device online", {
          id,
          serial,
          duration: change.closed?.duration_seconds,
        });
      });
    },

    offline(serial, ts, reason: OfflineReason) {
      return queue(serial.toLowerCase(), () => offline([{ serial, ts, reason }]));
    },

    offlineMany(items) {
      // The caller (ingest's tracker) keeps each device's transitions in order.
      return items.length === 0 ? Promise.resolve() : offline(items);
    },

    flush,

    interrupt() {
      interrupted = true;
    },

    async close() {
      await flush();
    },
  };
}

/** The ingest view of a stored device. */
function ingestDevice(d: StoredDevice): IngestDevice {
  return { serial: d.serial_number, kind: d.type, prefix: d.config.mqtt.topic_prefix };
}

/** The KV-backed {@link DeviceDirectory}. */
export function createDeviceDirectory(deps: Deps): DeviceDirectory {
  return {
    async list() {
      return (await listDevices(deps.kv)).map(ingestDevice);
    },
    async byPrefix(prefix) {
      const m = /^(sensor|station)\/([^/]+)$/.exec(prefix);
      if (!m) return null;
      const d = await findBySerial(deps.kv, m[2]);
      if (!d || d.type !== m[1] || d.config.mqtt.topic_prefix !== prefix) return null;
      return ingestDevice(d);
    },
    async authenticate(username, password) {
      const d = await findByMqttUsername(deps.kv, username);
      if (!d || !(await verifyMqttPassword(password, d.mqtt_password_hash))) return null;
      return ingestDevice(d);
    },
    async revision() {
      return String(await devicesRevision(deps.kv));
    },
  };
}

/**
 * A device's disconnect events overlapping `[from, to)` (epoch ms), oldest first: the input
 * of monthly uptime (`GET /api/analytics/uptime/{id}?month=`).
 */
export function deviceDisconnectEvents(
  deps: Deps,
  deviceId: number,
  from: number,
  to: number,
): Promise<DisconnectEvent[]> {
  return listDisconnectEvents(deps.kv, deviceId, from, to);
}
