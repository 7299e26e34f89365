/**
 * A zone and period's bills through the zone indexes (the key layout is written at the top of
 * `bills.ts`; the entries are staged with every bill write in `_bill_keys.ts`): counts, the
 * unit bills of a page, a zone's station bills and the periods billed. Stores older than the
 * indexes are indexed once, on first read.
 */
import {
  BILLS_REVISION,
  CUSTOMER_COUNTS,
  customerCountKey,
  customerKey,
  customerZoneKey,
  normalizeUnitBill,
  type StoredCustomerBill,
  type StoredUnitBill,
  summaryOf,
  UNIT_COUNTS,
  type UnitBillSummary,
  unitCountKey,
  unitCountsOf,
  unitKey,
  zoneIndexKey,
} from "./_bill_keys.ts";
import { periodOfBill } from "../core/bill.ts";
import { oncePerStore } from "./_once_per_store.ts";

const ZONE_INDEX_BUILT: Deno.KvKey = ["bills_zone_index_built"];
/** Bills indexed per commit of the build (one check each; Deno KV allows 100 checks). */
const BUILD_BILLS = 100;
/** Counters set per commit of the build (Deno KV allows 1000 mutations). */
const BUILD_COUNTS = 500;

/**
 * Writes the zone indexes and counters of bills written before they existed (once per store).
 * Index entries are written 100 bills a commit, each checked against the bill as read (a bill
 * changed since then was indexed by its own write). The counters are set from the bills read
 * in commits checked against the bills' revision read before them, the last one marking the
 * store built: a bill written meanwhile makes it fail, and everything is read again.
 */
const ensureZoneIndex = oncePerStore(async (kv: Deno.Kv): Promise<void> => {
  for (;;) {
    if ((await kv.get(ZONE_INDEX_BUILT)).value) return;
    const revision = await kv.get(BILLS_REVISION);
    const counts = new Map<string, { key: Deno.KvKey; n: bigint }>();
    const count = (key: Deno.KvKey) => {
      const c = counts.get(JSON.stringify(key));
      if (c) c.n++;
      else counts.set(JSON.stringify(key), { key, n: 1n });
    };
    let chunk: [Deno.KvEntry<unknown>, Deno.KvKey, unknown][] = [];
    const flush = async () => {
      const op = kv.atomic();
      for (const [e, key, value] of chunk) op.check(e).set(key, value);
      // A failed commit means a bill changed: so did the revision, and the build reads again.
      await op.commit();
      chunk = [];
    };
    for await (const e of kv.list<StoredUnitBill>({ prefix: ["unit_bills"] })) {
      const b = normalizeUnitBill(e.value);
      unitCountsOf(b).forEach(count);
      chunk.push([e, zoneIndexKey(b), summaryOf(b)]);
      if (chunk.length === BUILD_BILLS) await flush();
    }
    for await (const e of kv.list<StoredCustomerBill>({ prefix: ["customer_bills"] })) {
      count(customerCountKey(e.value.zone_id, periodOfBill(e.value)));
      chunk.push([e, customerZoneKey(e.value), null]);
      if (chunk.length === BUILD_BILLS) await flush();
    }
    if (chunk.length > 0) await flush();
    const writes: [Deno.KvKey, Deno.KvU64 | null][] = [];
    for (const prefix of [UNIT_COUNTS, CUSTOMER_COUNTS]) {
      for await (const e of kv.list({ prefix })) {
        if (!counts.has(JSON.stringify(e.key))) writes.push([e.key, null]);
      }
    }
    for (const { key, n } of counts.values()) writes.push([key, new Deno.KvU64(n)]);
    let built = true;
    for (let i = 0; built && (i === 0 || i < writes.length); i += BUILD_COUNTS) {
      const op = kv.atomic().check(revision);
      for (const [key, v] of writes.slice(i, i + BUILD_COUNTS)) v ? op.set(key, v) : op.delete(key);
      if (i + BUILD_COUNTS >= writes.length) op.set(ZONE_INDEX_BUILT, true);
      built = (await op.commit()).ok;
    }
    if (built) return;
  }
});

const u64 = (e: Deno.KvEntryMaybe<Deno.KvU64>) =>
  e.value ? Number(BigInt.asIntN(64, e.value.value)) : 0;

/** How many unit bills a zone has in a period, and how many are finalized (no bill read). */
export async function unitBillCounts(
  kv: Deno.Kv,
  zoneId: number,
  period: string,
): Promise<{ total: number; finalized: number }> {
  await ensureZoneIndex(kv);
  const [all, finalized] = await kv.getMany<Deno.KvU64[]>([
    unitCountKey(zoneId, period, "all"),
    unitCountKey(zoneId, period, "finalized"),
  ]);
  return { total: u64(all), finalized: u64(finalized) };
}

/** A unit bill's zone index entry: its summary and where the bill is. */
export interface UnitBillRef extends UnitBillSummary {
  station_id: number;
  unit_id: string;
  /** The bill's slot among its unit's bills of the period (core/bill.ts `billSlot`). */
  unit_part: string;
}

/**
 * The summaries of a zone and period's unit bills in the bills' key order (station, unit), the
 * first `limit` only when given: one small entry per bill, no bill read.
 */
export async function unitBillRefs(
  kv: Deno.Kv,
  zoneId: number,
  period: string,
  limit?: number,
): Promise<UnitBillRef[]> {
  await ensureZoneIndex(kv);
  const out: UnitBillRef[] = [];
  if (limit === 0) return out;
  const iter = kv.list<UnitBillSummary>({ prefix: ["unit_bills_by_zone", zoneId, period] }, {
    limit,
    batchSize: limit === undefined ? 500 : Math.min(limit, 500),
  });
  for await (const e of iter) {
    const slot = e.key[4] as string;
    out.push({
      ...e.value,
      station_id: e.key[3] as number,
      unit_id: e.value.unit_id ?? slot,
      unit_part: slot,
    });
  }
  return out;
}

/**
 * The unit bills of `refs` (of one zone and period), in their order; a ref whose bill is gone
 * or has another id, zone or period is skipped.
 */
export async function unitBillsAt(
  kv: Deno.Kv,
  zoneId: number,
  period: string,
  refs: readonly Pick<UnitBillRef, "id" | "station_id" | "unit_part">[],
): Promise<StoredUnitBill[]> {
  const out: StoredUnitBill[] = [];
  for (let i = 0; i < refs.length; i += 10) {
    const part = refs.slice(i, i + 10);
    const bills = await kv.getMany<StoredUnitBill[]>(
      part.map((r) => unitKey(r.station_id, period, r.unit_part)),
    );
    bills.forEach(({ value: v }, j) => {
      if (v && v.id === part[j].id && v.zone_id === zoneId && periodOfBill(v) === period) {
        out.push(normalizeUnitBill(v));
      }
    });
  }
  return out;
}

/** The customer bills of a zone and period, in key (station) order, read through the index. */
export async function listCustomerBillsOfZone(
  kv: Deno.Kv,
  zoneId: number,
  period: string,
): Promise<StoredCustomerBill[]> {
  await ensureZoneIndex(kv);
  const stations: number[] = [];
  for await (const e of kv.list({ prefix: ["customer_bills_by_zone", zoneId, period] })) {
    stations.push(e.key[3] as number);
  }
  const out: StoredCustomerBill[] = [];
  for (let i = 0; i < stations.length; i += 10) {
    const bills = await kv.getMany<StoredCustomerBill[]>(
      stations.slice(i, i + 10).map((s) => customerKey(s, period)),
    );
    for (const { value: v } of bills) {
      if (v && v.zone_id === zoneId && periodOfBill(v) === period) out.push(v);
    }
  }
  return out;
}

/**
 * The zones and periods that have unit bills (`units`) or customer bills (`stations`), from
 * their counters: a few small entries per zone, no bill read.
 */
export async function billedPeriods(
  kv: Deno.Kv,
  mode: "units" | "stations",
): Promise<{ zone_id: number; period: string }[]> {
  await ensureZoneIndex(kv);
  const out: { zone_id: number; period: string }[] = [];
  const prefix = mode === "units" ? UNIT_COUNTS : CUSTOMER_COUNTS;
  for await (const e of kv.list<Deno.KvU64>({ prefix })) {
    if (mode === "units" && e.key[3] !== "all") continue;
    if (u64(e) > 0) out.push({ zone_id: e.key[1] as number, period: e.key[2] as string });
  }
  return out;
}
