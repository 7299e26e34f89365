/**
 * Pricing zones and their price history in Deno KV.
 *
 * Key layout:
 * - `["zones", id]` → {@link StoredZone} (ids from the sequence `zones`)
 * - `["zone_history", zoneId, seq]` → {@link ZoneHistoryEntry}: one entry per change to the
 *   prices (seq from the sequence `zone_history`, so later entries sort after earlier ones)
 *
 * The stations of a zone are not indexed here: they are the stations whose `zone_id` is the
 * zone's id (`db/devices.ts`), derived when asked.
 */
import type { Zone } from "../core/zone.ts";
import { listValues, nextId } from "./kv.ts";

/** A zone as stored: every zone field, a numeric id and the time of the last change. */
export type StoredZone = Omit<Zone, "id" | "station_count" | "updated_at"> & {
  id: number;
  updated_at: string;
};

/** One change to the prices of a zone (spec 001 section 3, zone history entry). */
export interface ZoneHistoryEntry {
  effective_from: string;
  price_low: number;
  price_middle: number;
  price_high: number;
  price_surplus: number;
  summer_price_low: number;
  winter_price_low: number;
}

/** Zone fields whose change is a price change worth a history entry. */
const PRICE_FIELDS = /price|threshold|base_tariff|tax_percentage|winter_(start|end)/;

const zoneKey = (id: number): Deno.KvKey => ["zones", id];

function historyEntry(zone: Zone, at: string): ZoneHistoryEntry {
  return {
    effective_from: at,
    price_low: zone.price_low,
    price_middle: zone.price_middle,
    price_high: zone.price_high,
    price_surplus: zone.price_surplus,
    summer_price_low: zone.summer_price_low,
    winter_price_low: zone.winter_price_low,
  };
}

/** True when a price field differs between two zones. */
export function pricesChanged(a: Zone | StoredZone, b: Zone | StoredZone): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return Object.keys(rb).some((k) => PRICE_FIELDS.test(k) && ra[k] !== rb[k]);
}

/** Creates a zone and its first history entry, atomically. */
export async function createZone(kv: Deno.Kv, zone: Zone, now: number): Promise<StoredZone> {
  const id = await nextId(kv, "zones");
  const at = new Date(now).toISOString();
  const { id: _id, station_count: _sc, ...fields } = zone;
  const stored: StoredZone = { ...fields, id, updated_at: at };
  const seq = await nextId(kv, "zone_history");
  const res = await kv.atomic()
    .check({ key: zoneKey(id), versionstamp: null })
    .set(zoneKey(id), stored)
    .set(["zone_history", id, seq], historyEntry(zone, at))
    .commit();
  if (!res.ok) throw new Error(`zone id ${id} is already taken`);
  return stored;
}

/**
 * Replaces a zone's fields; a history entry is added when a price changed. Null when the
 * zone does not exist.
 */
export async function updateZone(
  kv: Deno.Kv,
  id: number,
  zone: Zone,
  now: number,
): Promise<StoredZone | null> {
  const at = new Date(now).toISOString();
  const { id: _id, station_count: _sc, ...fields } = zone;
  for (;;) {
    const cur = await kv.get<StoredZone>(zoneKey(id));
    if (!cur.value) return null;
    const stored: StoredZone = { ...fields, id, updated_at: at };
    const op = kv.atomic().check(cur).set(zoneKey(id), stored);
    if (pricesChanged(cur.value, stored)) {
      op.set(["zone_history", id, await nextId(kv, "zone_history")], historyEntry(zone, at));
    }
    if ((await op.commit()).ok) return stored;
  }
}

/** Reads one zone, or null. */
export async function getZone(kv: Deno.Kv, id: number): Promise<StoredZone | null> {
  return (await kv.get<StoredZone>(zoneKey(id))).value;
}

/** Every zone, by id. */
export function listZones(kv: Deno.Kv): Promise<StoredZone[]> {
  return listValues<StoredZone>(kv, ["zones"]);
}

/** A zone's price history, newest first. */
export async function zoneHistory(kv: Deno.Kv, id: number): Promise<ZoneHistoryEntry[]> {
  return (await listValues<ZoneHistoryEntry>(kv, ["zone_history", id])).reverse();
}

/** Deletes a zone and its history. False when it did not exist. */
export async function deleteZone(kv: Deno.Kv, id: number): Promise<boolean> {
  const cur = await kv.get<StoredZone>(zoneKey(id));
  if (!cur.value) return false;
  const op = kv.atomic().check(cur).delete(zoneKey(id));
  for await (const e of kv.list({ prefix: ["zone_history", id] })) op.delete(e.key);
  return (await op.commit()).ok;
}
