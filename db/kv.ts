/**
 * Opening Deno KV and the id sequences shared by every collection.
 *
 * Key layout: `["seq", collection]` holds the last id handed out for a collection;
 * `["health_probe"]` the instant of the latest health check (see `probeKv`).
 */
import { retryWhenBusy } from "./kv_busy.ts";

/**
 * Opens the KV store at `path` (a file, `:memory:`, or a KV Connect URL); a file may be shared
 * by several processes (`retryWhenBusy`).
 */
export async function openKv(path: string): Promise<Deno.Kv> {
  const kv = await Deno.openKv(path);
  return path === ":memory:" || /^https?:\/\//.test(path) ? kv : retryWhenBusy(kv);
}

/** Hands out the next integer id of `collection`, safely under concurrent callers. */
export async function nextId(kv: Deno.Kv, collection: string): Promise<number> {
  const key = ["seq", collection];
  for (;;) {
    const cur = await kv.get<number>(key);
    const next = (cur.value ?? 0) + 1;
    const res = await kv.atomic().check(cur).set(key, next).commit();
    if (res.ok) return next;
  }
}

/** Reads every value under `prefix`. */
export async function listValues<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const out: T[] = [];
  for await (const entry of kv.list<T>({ prefix })) out.push(entry.value);
  return out;
}

/**
 * The values `offset`..`offset + limit - 1` under `prefix`, in key order: reads only up to
 * the last one asked for.
 */
export async function listValuesSlice<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  offset: number,
  limit: number,
): Promise<T[]> {
  const out: T[] = [];
  let i = 0;
  for await (const entry of kv.list<T>({ prefix }, { limit: offset + limit })) {
    if (i++ >= offset) out.push(entry.value);
  }
  return out;
}

/**
 * Writes and reads back a small probe (key `["health_probe"]`, expiring after a minute):
 * throws when KV cannot be written or read (a full disk, a store away).
 */
export async function probeKv(kv: Deno.Kv, now: number): Promise<void> {
  const key = ["health_probe"];
  await kv.set(key, now, { expireIn: 60_000 });
  await kv.get(key);
}
