/**
 * Device status in Deno KV: each device's status, when it was last heard from, and its
 * disconnect events (the input of uptime). Keyed by device id, so a serial number change
 * keeps the history.
 *
 * Key layout:
 * - `["device_status", deviceId]` → {@link StatusRecord}
 * - `["device_last_seen", deviceId]` → `Deno.KvU64` epoch ms, written with atomic `max` so
 *   that several ingest processes never move it backwards and never need to read it first
 * - `["device_events", deviceId, disconnectTime]` → {@link DisconnectEvent}; events of one
 *   device never overlap, so they are ordered by both start and end
 * - `["device_events_by_end", end, deviceId, disconnectTime]` → {@link DisconnectEvent}: the
 *   same events in the order they ended (`end` is the reconnect time, {@link OPEN_END} while
 *   open), written in the same commits, so the fleet's events that overlap a window are one
 *   range read ({@link fleetDisconnectEvents}); `["device_events_by_end_built"]` marks a store
 *   whose older events are in it
 * - `["device_status_revision"]` → `Deno.KvU64`: 1 added by every commit that changes a status
 *   (a sum, so writers never conflict on it); readers that keep figures computed from the
 *   statuses compare it
 */
import type { DeviceStatus, DisconnectEvent } from "../core/devices.ts";
import { oncePerStore } from "./_once_per_store.ts";
import { byEndKey, eventKey, OPEN_END, REVISION_KEY, seenKey, statusKey } from "./_status_keys.ts";

/** A device's current status. */
export interface StatusRecord {
  status: DeviceStatus;
  /** When the status last changed (epoch ms), or null when it never did. */
  changed_at: number | null;
  /** The disconnect_time of the open disconnect event, or null. */
  open_event: number | null;
  /** Who was notified of the open disconnect (their notifications resolve on reconnect). */
  notified: number[];
}

/** A device's status and last_seen as served. */
export interface StatusNow {
  status: DeviceStatus;
  last_seen: number | null;
}

const BY_END_BUILT_KEY = ["device_events_by_end_built"];

/** The revision of the statuses: it changes whenever a device's status does. */
export async function statusRevision(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(REVISION_KEY)).value?.value ?? 0n;
}

/** The status of a device that was never heard from. */
const UNKNOWN_STATUS: StatusRecord = {
  status: "unknown",
  changed_at: null,
  open_event: null,
  notified: [],
};

/** Reads one device's status record (unknown when none). */
export async function getStatusRecord(kv: Deno.Kv, id: number): Promise<StatusRecord> {
  return (await kv.get<StatusRecord>(statusKey(id))).value ?? UNKNOWN_STATUS;
}

/**
 * Status and last_seen of many devices at once. Very large sets (a fleet) are read with one
 * scan of each prefix; others with point reads (at most 10 keys per read, run together), so
 * a page of devices costs the same whatever the size of the fleet.
 */
export async function readStatuses(
  kv: Deno.Kv,
  ids: readonly number[],
): Promise<Map<number, StatusNow>> {
  const status = new Map<number, DeviceStatus>();
  const seen = new Map<number, number>();
  const wanted = new Set(ids);
  if (wanted.size > SCAN_ABOVE) {
    for await (const e of kv.list<StatusRecord>({ prefix: ["device_status"] })) {
      const id = e.key[1] as number;
      if (wanted.has(id)) status.set(id, e.value.status);
    }
    for await (const e of kv.list<Deno.KvU64>({ prefix: ["device_last_seen"] })) {
      const id = e.key[1] as number;
      if (wanted.has(id)) seen.set(id, Number(e.value.value));
    }
  } else {
    const list = [...wanted];
    const chunks: number[][] = [];
    for (let i = 0; i < list.length; i += 5) chunks.push(list.slice(i, i + 5));
    await Promise.all(chunks.map(async (chunk) => {
      const got = await kv.getMany<unknown[]>([...chunk.map(statusKey), ...chunk.map(seenKey)]);
      chunk.forEach((id, j) => {
        const s = got[j].value as StatusRecord | null;
        const t = got[j + chunk.length].value as Deno.KvU64 | null;
        if (s) status.set(id, s.status);
        if (t) seen.set(id, Number(t.value));
      });
    }));
  }
  const out = new Map<number, StatusNow>();
  for (const id of wanted) {
    out.set(id, { status: status.get(id) ?? "unknown", last_seen: seen.get(id) ?? null });
  }
  return out;
}

/** Above this many devices, {@link readStatuses} scans instead of reading each one. */
export const SCAN_ABOVE = 2_000;

/** Raises the last_seen of devices to the given times (never lowers it). */
export async function recordLastSeen(
  kv: Deno.Kv,
  seen: ReadonlyArray<readonly [id: number, ts: number]>,
): Promise<void> {
  for (let i = 0; i < seen.length; i += 500) {
    const op = kv.atomic();
    for (const [id, ts] of seen.slice(i, i + 500)) {
      op.max(seenKey(id), BigInt(Math.max(0, Math.floor(ts))));
    }
    await op.commit();
  }
}

/** What marking a device online changed. */
interface OnlineChange {
  /** False when it was online already. */
  changed: boolean;
  /** The disconnect event it closed, if any. */
  closed: DisconnectEvent | null;
  /** Who had been notified of that disconnect. */
  notified: number[];
}

/** Marks a device online at `ts`, closing its open disconnect event with its duration. */
export async function markOnline(kv: Deno.Kv, id: number, ts: number): Promise<OnlineChange> {
  for (;;) {
    const cur = await kv.get<StatusRecord>(statusKey(id));
    const rec = cur.value ?? UNKNOWN_STATUS;
    if (rec.status === "online") return { changed: false, closed: null, notified: [] };
    const op = kv.atomic().check(cur).set(
      statusKey(id),
      {
        status: "online",
        changed_at: ts,
        open_event: null,
        notified: [],
      } satisfies StatusRecord,
    );
    op.max(seenKey(id), BigInt(Math.max(0, Math.floor(ts))));
    op.sum(REVISION_KEY, 1n);
    let closed: DisconnectEvent | null = null;
    if (rec.open_event !== null) {
      const ev = await kv.get<DisconnectEvent>(eventKey(id, rec.open_event));
      if (ev.value) {
        const end = Math.max(ts, ev.value.disconnect_time);
        closed = {
          ...ev.value,
          reconnect_time: end,
          still_disconnected: false,
          duration_seconds: Math.round((end - ev.value.disconnect_time) / 1000),
        };
        op.check(ev).set(ev.key, closed).delete(byEndKey(id, ev.value)).set(
          byEndKey(id, closed),
          closed,
        );
      }
    }
    if ((await op.commit()).ok) return { changed: true, closed, notified: rec.notified };
  }
}

/**
 * Marks a device offline at `ts`, opening a disconnect event and remembering who was
 * notified. False when it was offline already (nothing changes).
 */
export async function markOffline(
  kv: Deno.Kv,
  id: number,
  ts: number,
  reason: DisconnectEvent["reason"],
  notified: number[],
): Promise<boolean> {
  for (;;) {
    const cur = await kv.get<StatusRecord>(statusKey(id));
    const rec = cur.value ?? UNKNOWN_STATUS;
    if (rec.status === "offline") return false;
    const event: DisconnectEvent = {
      disconnect_time: ts,
      reconnect_time: null,
      still_disconnected: true,
      duration_seconds: null,
      reason,
    };
    const res = await kv.atomic().check(cur)
      .set(
        statusKey(id),
        {
          status: "offline",
          changed_at: ts,
          open_event: ts,
          notified,
        } satisfies StatusRecord,
      )
      .set(eventKey(id, ts), event)
      .set(byEndKey(id, event), event)
      .sum(REVISION_KEY, 1n)
      .commit();
    if (res.ok) return true;
  }
}

/** The current status of a device, or unknown. */
export async function statusNow(kv: Deno.Kv, id: number): Promise<StatusNow> {
  return (await readStatuses(kv, [id])).get(id)!;
}

/**
 * A device's disconnect events that overlap `[from, to)` (epoch ms), oldest first. An
 * event still open overlaps everything after its start.
 */
export async function listDisconnectEvents(
  kv: Deno.Kv,
  id: number,
  from: number,
  to: number,
): Promise<DisconnectEvent[]> {
  const out: DisconnectEvent[] = [];
  const iter = kv.list<DisconnectEvent>({
    prefix: ["device_events", id],
    end: eventKey(id, to),
  }, { reverse: true });
  for await (const e of iter) {
    const end = e.value.reconnect_time ?? Infinity;
    if (end <= from) break;
    out.push(e.value);
  }
  return out.reverse();
}

/**
 * Every device's disconnect events that overlap `[from, to)` (epoch ms), by device id, each
 * device's oldest first: one range read of the events that ended after `from` or are open, so
 * its cost follows the disconnections in the window, not the size of the fleet.
 */
export async function fleetDisconnectEvents(
  kv: Deno.Kv,
  from: number,
  to: number,
): Promise<Map<number, DisconnectEvent[]>> {
  await ensureByEndIndex(kv);
  const out = new Map<number, DisconnectEvent[]>();
  const iter = kv.list<DisconnectEvent>({
    start: ["device_events_by_end", from],
    end: ["device_events_by_end", OPEN_END + 1],
  });
  for await (const e of iter) {
    const ev = e.value;
    if ((ev.reconnect_time ?? Infinity) <= from || ev.disconnect_time >= to) continue;
    const id = e.key[2] as number;
    const list = out.get(id);
    if (list) list.push(ev);
    else out.set(id, [ev]);
  }
  for (const list of out.values()) list.sort((a, b) => a.disconnect_time - b.disconnect_time);
  return out;
}

/**
 * Puts the events stored before the by-end index existed into it (once per store). An event
 * that changes meanwhile is left to the write that changed it, which keeps the index itself.
 */
const ensureByEndIndex = oncePerStore(async (kv) => {
  if ((await kv.get(BY_END_BUILT_KEY)).value) return;
  const index = (entries: Deno.KvEntry<DisconnectEvent>[]) => {
    const op = kv.atomic();
    for (const e of entries) op.check(e).set(byEndKey(e.key[1] as number, e.value), e.value);
    return op.commit();
  };
  let batch: Deno.KvEntry<DisconnectEvent>[] = [];
  const flush = async () => {
    // A batch in which an event changed is indexed one by one, leaving out the changed ones.
    if (!(await index(batch)).ok) { for (const e of batch) await index([e]); }
    batch = [];
  };
  for await (const e of kv.list<DisconnectEvent>({ prefix: ["device_events"] })) {
    batch.push(e);
    if (batch.length === 100) await flush(); // Deno KV allows 100 checks a commit
  }
  if (batch.length) await flush();
  await kv.set(BY_END_BUILT_KEY, true);
});

/** Forgets everything about a deleted device's status; answers the record it had. */
export async function deleteStatusOf(kv: Deno.Kv, id: number): Promise<StatusRecord> {
  const rec = await getStatusRecord(kv, id);
  const keys: Deno.KvKey[] = [statusKey(id), seenKey(id)];
  for await (const e of kv.list<DisconnectEvent>({ prefix: ["device_events", id] })) {
    keys.push(e.key, byEndKey(id, e.value));
  }
  for (let i = 0; i < keys.length; i += 500) {
    const op = kv.atomic();
    for (const k of keys.slice(i, i + 500)) op.delete(k);
    if (i === 0) op.sum(REVISION_KEY, 1n);
    await op.commit();
  }
  return rec;
}

/** Every stored device's own status (one scan; devices never heard from are left out). */
export async function allStatuses(kv: Deno.Kv): Promise<Map<number, DeviceStatus>> {
  const out = new Map<number, DeviceStatus>();
  for await (const e of kv.list<StatusRecord>({ prefix: ["device_status"] })) {
    out.set(e.key[1] as number, e.value.status);
  }
  return out;
}

/** Every device's last_seen (epoch ms), by id (one scan; devices never heard from are left out). */
export async function allLastSeen(kv: Deno.Kv): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for await (const e of kv.list<Deno.KvU64>({ prefix: ["device_last_seen"] })) {
    out.set(e.key[1] as number, Number(e.value.value));
  }
  return out;
}
