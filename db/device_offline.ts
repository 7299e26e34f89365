/**
 * Many devices going offline at once (ingest's sweep after a restart or a network outage): the
 * keys of `device_status.ts`, written in a few atomic commits of up to 100 devices instead of a
 * read-check-write loop per device. Which devices change follows {@link goesOffline}: devices
 * never heard from stay unknown when they are merely silent.
 */
import { type DisconnectEvent, goesOffline } from "../core/devices.ts";
import type { StatusRecord } from "./device_status.ts";
import { byEndKey, eventKey, REVISION_KEY, seenKey, statusKey } from "./_status_keys.ts";

/** A device to mark offline. */
interface OfflineMark {
  id: number;
  ts: number;
  reason: DisconnectEvent["reason"];
}

/** A mark that changes its device, with the status entry it was decided on. */
interface OfflineCandidate extends OfflineMark {
  entry: Deno.KvEntryMaybe<StatusRecord>;
}

/** Devices read one by one up to this many; above it the status families are scanned once. */
const SCAN_ABOVE = 200;
/** Devices per commit: Deno KV allows 100 checks in one. */
const PER_COMMIT = 100;

/** The entries of these devices' status and whether each was ever heard from. */
async function readEntries(
  kv: Deno.Kv,
  ids: readonly number[],
): Promise<Map<number, { entry: Deno.KvEntryMaybe<StatusRecord>; heard: boolean }>> {
  const out = new Map<number, { entry: Deno.KvEntryMaybe<StatusRecord>; heard: boolean }>();
  if (ids.length > SCAN_ABOVE) {
    const wanted = new Set(ids);
    const entries = new Map<number, Deno.KvEntry<StatusRecord>>();
    for await (const e of kv.list<StatusRecord>({ prefix: ["device_status"] })) {
      const id = e.key[1] as number;
      if (wanted.has(id)) entries.set(id, e);
    }
    const seen = new Set<number>();
    for await (const e of kv.list({ prefix: ["device_last_seen"] })) {
      seen.add(e.key[1] as number);
    }
    for (const id of wanted) {
      const entry = entries.get(id) ?? { key: statusKey(id), value: null, versionstamp: null };
      out.set(id, { entry, heard: entry.value !== null || seen.has(id) });
    }
    return out;
  }
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += 5) chunks.push(ids.slice(i, i + 5));
  await Promise.all(chunks.map(async (chunk) => {
    const got = await kv.getMany<unknown[]>([...chunk.map(statusKey), ...chunk.map(seenKey)]);
    chunk.forEach((id, j) => {
      const entry = got[j] as Deno.KvEntryMaybe<StatusRecord>;
      out.set(id, { entry, heard: entry.value !== null || got[j + chunk.length].value !== null });
    });
  }));
  return out;
}

/**
 * The marks that change their device (see the module comment), each with the status entry it
 * was decided on; a device marked twice counts once (its first mark).
 */
export async function offlineCandidates(
  kv: Deno.Kv,
  marks: readonly OfflineMark[],
): Promise<OfflineCandidate[]> {
  const firsts = new Map<number, OfflineMark>();
  for (const m of marks) if (!firsts.has(m.id)) firsts.set(m.id, m);
  const entries = await readEntries(kv, [...firsts.keys()]);
  const out: OfflineCandidate[] = [];
  for (const m of firsts.values()) {
    const { entry, heard } = entries.get(m.id)!;
    if (goesOffline(entry.value?.status ?? "unknown", heard, m.reason)) out.push({ ...m, entry });
  }
  return out;
}

/**
 * Marks the candidates offline, each opening a disconnect event and remembering who is
 * notified (`notified(id)`), in commits of up to 100 devices that each check the entries they
 * were decided on. A commit that meets a change made meanwhile reads its devices again and
 * decides again. Stops between commits once `stop()` says so (shutting down: the devices left
 * keep their status). Answers the ids that changed.
 */
export async function commitOffline(
  kv: Deno.Kv,
  candidates: readonly OfflineCandidate[],
  notified: (id: number) => number[],
  stop: () => boolean = () => false,
): Promise<number[]> {
  const changed: number[] = [];
  for (let i = 0; i < candidates.length; i += PER_COMMIT) {
    let chunk = candidates.slice(i, i + PER_COMMIT);
    while (chunk.length > 0) {
      if (stop()) return changed;
      const op = kv.atomic();
      for (const c of chunk) {
        const event: DisconnectEvent = {
          disconnect_time: c.ts,
          reconnect_time: null,
          still_disconnected: true,
          duration_seconds: null,
          reason: c.reason,
        };
        const record: StatusRecord = {
          status: "offline",
          changed_at: c.ts,
          open_event: c.ts,
          notified: notified(c.id),
        };
        op.check(c.entry).set(statusKey(c.id), record).set(eventKey(c.id, c.ts), event)
          .set(byEndKey(c.id, event), event);
      }
      op.sum(REVISION_KEY, 1n);
      if ((await op.commit()).ok) {
        changed.push(...chunk.map((c) => c.id));
        break;
      }
      chunk = await offlineCandidates(kv, chunk);
    }
  }
  return changed;
}
