/**
 * Pricing zones, their price versions and price history in Deno KV.
 *
 * Key layout:
 * - `["zones", id]` → {@link StoredZone} (ids from the sequence `zones`): the zone as last saved
 * - `["zone_history", zoneId, seq]` → {@link PriceRecord}: one entry per change to a version
 *   (seq from the sequence `zone_history`, so later entries sort after earlier ones). An entry
 *   with `zone` is a price version: the newest entry for each `applies_from` is that version.
 *   A zone with no such entry (made before versions) has one version, the zone itself, applying
 *   to every period. An entry is also one of the price history unless `history` is false (a
 *   correction of the owner's terms alone).
 *
 * Which fields a version holds and which stay on the zone (its identity) is
 * `core/zone_fields.ts`: a version's zone is the zone's identity with the version's fields.
 *
 * - `["zones_revision"]` → `Deno.KvU64`: 1 added by every commit that writes a zone or its
 *   history
 *
 * The stations of a zone are not indexed here: they are the stations whose `zone_id` is the
 * zone's id (`db/devices.ts`), derived when asked.
 */
import { zonePricesEvent } from "../core/messages.ts";
import { stageOutboxEvent } from "./outbox.ts";
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import type { Zone } from "../core/zone.ts";
import { versionOn, type ZoneHistoryEntry, type ZoneVersion } from "../core/zone_versions.ts";
import {
  changedVersionFields,
  type FieldValues,
  isPriceChange,
  versionFieldsOf,
  zoneWithVersion,
} from "../core/zone_fields.ts";
import { listValues, nextId } from "./kv.ts";

/** A zone as stored: every zone field, a numeric id and the time of the last change. */
export type StoredZone = Omit<Zone, "id" | "station_count" | "updated_at"> & {
  id: number;
  updated_at: string;
};

/** A stored history entry; with `zone` it is also a price version from `applies_from`. */
interface PriceRecord extends ZoneHistoryEntry {
  applies_from?: string | null;
  /** The version's fields (entries written before `core/zone_fields.ts` hold every field). */
  zone?: FieldValues;
  recorded_at?: string;
  /** The version a zone had before versions, written when its first later version is made. */
  carried?: boolean;
  /** False: a version change that is no price change (the owner's terms alone). */
  history?: false;
}

/** A version as stored: the version, and when it was last written. */
export type StoredVersion = ZoneVersion & { recorded_at: string };

type ZoneFields = Omit<StoredZone, "id" | "updated_at">;

const zoneKey = (id: number): Deno.KvKey => ["zones", id];
/** The zones' revision (a page kept by it is checked with one read). */
export const ZONES_REVISION: Deno.KvKey = ["zones_revision"];

function historyEntry(zone: Zone | StoredZone, at: string): ZoneHistoryEntry {
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

const fieldsOf = (zone: Zone | StoredZone): ZoneFields => {
  const { id: _id, station_count: _sc, updated_at: _u, ...fields } = zone as Zone;
  return fields as ZoneFields;
};

/** Creates a zone and its first version (applying to every period), atomically. */
export async function createZone(
  kv: Deno.Kv,
  zone: Zone,
  now: number,
  audit?: AuditStamp,
): Promise<StoredZone> {
  const id = await nextId(kv, "zones");
  const at = new Date(now).toISOString();
  const stored: StoredZone = { ...fieldsOf(zone), id, updated_at: at };
  const seq = await nextId(kv, "zone_history");
  const record: PriceRecord = {
    ...historyEntry(zone, at),
    applies_from: null,
    zone: versionFieldsOf(zone),
    recorded_at: at,
  };
  const op = kv.atomic()
    .check({ key: zoneKey(id), versionstamp: null })
    .set(zoneKey(id), stored)
    .set(["zone_history", id, seq], record)
    .sum(ZONES_REVISION, 1n);
  if (audit) stageAudit(op, { ...audit, object: `zone:${id}` }, null, stored);
  const res = await op.commit();
  if (!res.ok) throw new Error(`zone id ${id} is already taken`);
  return stored;
}

/** Where an update's version goes: a new version, or a correction of the one in force `today`. */
interface PriceTarget {
  /** `YYYY-MM-DD` of a new version, or undefined to correct the version in force `today`. */
  applies_from?: string;
  /** Today's local date, `YYYY-MM-DD`. */
  today: string;
  /** The history entry's `effective_from` of a new version (its first instant, ISO). */
  starts_at?: string;
}

/**
 * Saves a zone: its identity at once, its version fields as a new version from
 * `target.applies_from` or as a correction of the version in force today. The version is
 * written when one of its fields changed (always a new one); it is a price history entry
 * unless only the owner's terms changed in a correction. Null when the zone does not exist.
 */
export async function updateZone(
  kv: Deno.Kv,
  id: number,
  zone: Zone,
  now: number,
  target?: PriceTarget,
  audit?: AuditStamp,
): Promise<StoredZone | null> {
  const at = new Date(now).toISOString();
  const fields = fieldsOf(zone);
  for (;;) {
    const cur = await kv.get<StoredZone>(zoneKey(id));
    if (!cur.value) return null;
    const records = await listValues<PriceRecord>(kv, ["zone_history", id]);
    const versions = versionsOf(cur.value, records);
    const today = target?.today ?? at.slice(0, 10);
    const inForce = versionOn(versions, today);
    const from = target?.applies_from ?? inForce.applies_from;
    const replaced = versions.find((v) => v.applies_from === from);
    const stored: StoredZone = { ...fields, id, updated_at: at };
    const op = kv.atomic().check(cur).set(zoneKey(id), stored).sum(ZONES_REVISION, 1n);
    if (from !== null && !records.some((r) => r.zone)) {
      // A zone from before versions: its prices become the first version.
      op.set(
        ["zone_history", id, await nextId(kv, "zone_history")],
        {
          ...historyEntry(cur.value, cur.value.updated_at),
          applies_from: null,
          zone: versionFieldsOf(cur.value),
          recorded_at: at,
          carried: true,
        } satisfies PriceRecord,
      );
    }
    const isNew = target?.applies_from !== undefined;
    const changed = replaced ? changedVersionFields(replaced.zone, zone) : [];
    if (!replaced || changed.length > 0 || isNew) {
      const effective = isNew ? target.starts_at ?? at : at;
      const record: PriceRecord = {
        ...historyEntry(zone, effective),
        applies_from: from,
        zone: versionFieldsOf(zone),
        recorded_at: at,
      };
      if (replaced && !isNew && !isPriceChange(changed)) record.history = false;
      const recordId = await nextId(kv, "zone_history");
      op.set(["zone_history", id, recordId], record);
      // New prices are told to the zone's tenants from the same commit (the owner's terms alone
      // are not theirs to hear of).
      const before = (replaced ?? versionOn(versions, from ?? today)).zone;
      if (isPriceChange(changedVersionFields(before, zone))) {
        stageOutboxEvent(op, zonePricesEvent(id, from ?? today, recordId));
      }
    }
    if (audit) {
      // Before: the version this one corrects, or the one in force until the new one starts.
      const was = { ...(replaced ?? versionOn(versions, from ?? today)).zone, applies_from: from };
      stageAudit(op, audit, was, { ...stored, applies_from: from });
    }
    if ((await op.commit()).ok) return stored;
  }
}

/** A zone's versions from its history records (the zone itself when it has none). */
function versionsOf(zone: StoredZone, records: PriceRecord[]): StoredVersion[] {
  const byFrom = new Map<string, StoredVersion>();
  for (const r of records) {
    if (!r.zone) continue;
    byFrom.set(r.applies_from ?? "", {
      applies_from: r.applies_from ?? null,
      zone: zoneWithVersion({ ...fieldsOf(zone), id: zone.id }, r.zone),
      recorded_at: r.recorded_at ?? r.effective_from,
    });
  }
  if (byFrom.size === 0) {
    return [{
      applies_from: null,
      zone,
      recorded_at: zone.updated_at,
    }];
  }
  return [...byFrom.values()].sort((a, b) =>
    (a.applies_from ?? "") < (b.applies_from ?? "") ? -1 : 1
  );
}

/**
 * A zone with the version fields of the version in force on `today` (`YYYY-MM-DD`; a later
 * version waits for its first day), its identity and time of change as saved; null when it
 * does not exist.
 */
export async function getZoneInForce(
  kv: Deno.Kv,
  id: number,
  today: string,
): Promise<StoredZone | null> {
  const zone = await getZone(kv, id);
  if (!zone) return null;
  const records = await listValues<PriceRecord>(kv, ["zone_history", id]);
  const v = versionOn(versionsOf(zone, records), today);
  return zoneWithVersion(zone, v.zone);
}

/** A zone's price versions, oldest first; empty when the zone does not exist. */
export async function zoneVersions(kv: Deno.Kv, id: number): Promise<StoredVersion[]> {
  const zone = await getZone(kv, id);
  if (!zone) return [];
  return versionsOf(zone, await listValues<PriceRecord>(kv, ["zone_history", id]));
}

/** Reads one zone, or null. */
export async function getZone(kv: Deno.Kv, id: number): Promise<StoredZone | null> {
  return (await kv.get<StoredZone>(zoneKey(id))).value;
}

/** Every zone, by id. */
export function listZones(kv: Deno.Kv): Promise<StoredZone[]> {
  return listValues<StoredZone>(kv, ["zones"]);
}

/** A zone's price history (the spec's entry fields), newest first. */
export async function zoneHistory(kv: Deno.Kv, id: number): Promise<ZoneHistoryEntry[]> {
  const records = await listValues<PriceRecord>(kv, ["zone_history", id]);
  return records.filter((r) => !r.carried && r.history !== false).reverse().map((r) => ({
    effective_from: r.effective_from,
    price_low: r.price_low,
    price_middle: r.price_middle,
    price_high: r.price_high,
    price_surplus: r.price_surplus,
    summer_price_low: r.summer_price_low,
    winter_price_low: r.winter_price_low,
  }));
}

/** Deletes a zone and its history. False when it did not exist. */
export async function deleteZone(
  kv: Deno.Kv,
  id: number,
  audit?: AuditStamp,
): Promise<boolean> {
  const cur = await kv.get<StoredZone>(zoneKey(id));
  if (!cur.value) return false;
  const op = kv.atomic().check(cur).delete(zoneKey(id)).sum(ZONES_REVISION, 1n);
  if (audit) stageAudit(op, audit, cur.value, null);
  for await (const e of kv.list({ prefix: ["zone_history", id] })) op.delete(e.key);
  return (await op.commit()).ok;
}
