/**
 * The keys of the device status families (the layout is written at the top of
 * `device_status.ts`): internal to `device_status.ts` and `device_offline.ts`.
 */
import type { DisconnectEvent } from "../core/devices.ts";

export const statusKey = (id: number) => ["device_status", id];
export const seenKey = (id: number) => ["device_last_seen", id];
export const eventKey = (id: number, at: number) => ["device_events", id, at];
export const REVISION_KEY = ["device_status_revision"];
/** The end of an open event in the by-end index: after every real time. */
export const OPEN_END = Number.MAX_SAFE_INTEGER;
export const byEndKey = (id: number, ev: DisconnectEvent) => [
  "device_events_by_end",
  ev.reconnect_time ?? OPEN_END,
  id,
  ev.disconnect_time,
];
