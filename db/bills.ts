/**
 * Unit bills and customer (station) bills in Deno KV (spec 001 section 3): the only module
 * that knows their keys. The rules of a bill are core/bill.ts's.
 *
 * Key layout:
 * - `["unit_bills", stationId, period, unitId]` → {@link StoredUnitBill}: one bill per unit and
 *   period, so a second billing run finds the bill of the first and updates it
 * - `["unit_bill_ids", id]` → `[stationId, period, unitId]` (ids from the sequence `bills`)
 * - `["unit_bills_due", dueDate, id]` → null: finalized bills that may still become overdue
 *   (pending, reference_expired, failed), so the overdue sweep reads only those past due
 * - `["unit_bills_by_tenant", tenantId, id]` → the bill's key: a tenant's bills without reading
 *   the fleet's; built once for stores older than it (`["unit_bills_by_tenant_built"]`), and
 *   checked on read (an entry whose bill is gone or has another tenant is skipped)
 * - `["unit_bills_by_zone", zoneId, period, stationId, unitId]` → {@link UnitBillSummary} (id,
 *   tenant, energy, total, finalized, list status): a zone and period's list in the bills' key
 *   order, counted, sorted and paged without reading the bills; checked on read (an entry whose
 *   bill is gone or has another id or zone is skipped)
 * - `["unit_bills_count", zoneId, period, "all" | "finalized"]` → Deno.KvU64: the zone and
 *   period's unit bills, and the finalized ones, kept by `sum` in the commit of every write
 * - `["customer_bills", stationId, period]` → {@link StoredCustomerBill}: one per station and period
 * - `["customer_bill_ids", id]` → `[stationId, period]` (ids from the sequence `customer_bills`)
 * - `["customer_bills_by_zone", zoneId, period, stationId]` → null, and
 *   `["customer_bills_count", zoneId, period]` → Deno.KvU64: the same for station bills
 * - `["bills_zone_index_built"]` → true once the zone indexes and counters above were built for
 *   a store older than them (the writes keep them from then on)
 * - `["bill_notices_pending", id]` → null: a finalized bill whose `bill_created` notice is
 *   still to be written (set in the commit that finalizes it)
 * - `["bills_revision"]`, `["bills_station_revision", stationId]` → Deno.KvU64: 1 added by
 *   every commit that writes a bill, of that station (read by bill_facts.ts)
 *
 * `period` is the canonical `YYYY-MM` or `YYYY-MM-MM` text.
 *
 * Consistency: {@link writeStationBills} writes the unit bills of one station and its customer
 * bill in ONE atomic commit, checked against the versionstamps read before computing them, so a
 * killed run leaves no half-written station and a concurrent run makes the commit fail (the
 * caller reads again and retries). Finalized unit bills are never changed by it; a finalized
 * station bill only when one of its unit bills is written in the same commit. A run may commit
 * several stations together ({@link writeStationsBills}: all of them or none). Ids come from
 * the sequences one station at a time, or in blocks for a whole run ({@link idBlocks}).
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import {
  customerKey,
  listUnitBillEntries,
  normalizeUnitBill,
  NOTICES_PENDING,
  putCustomerBill,
  putUnitBill,
  removeCustomerBill,
  removeUnitBill,
  type StoredCustomerBill,
  type StoredUnitBill,
  tenantIndexKey,
  touchBills,
  unitKey,
} from "./_bill_keys.ts";
import { periodOfBill } from "../core/bill.ts";
import { oncePerStore } from "./_once_per_store.ts";

export { type StoredCustomerBill, type StoredUnitBill, type UnitBillDraft } from "./_bill_keys.ts";
export * from "./bills_run.ts";
export * from "./bills_zone.ts";

/** A unit's bill of a period, or null. */
export async function getUnitBillOf(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  unitId: string,
): Promise<StoredUnitBill | null> {
  const v = (await kv.get<StoredUnitBill>(unitKey(stationId, period, unitId))).value;
  return v && normalizeUnitBill(v);
}

/** A unit's bills of several periods (null where it has none), in the order asked. */
export async function getUnitBillsOf(
  kv: Deno.Kv,
  stationId: number,
  periods: readonly string[],
  unitId: string,
): Promise<(StoredUnitBill | null)[]> {
  const out: (StoredUnitBill | null)[] = [];
  for (let i = 0; i < periods.length; i += 10) {
    const entries = await kv.getMany<StoredUnitBill[]>(
      periods.slice(i, i + 10).map((p) => unitKey(stationId, p, unitId)),
    );
    for (const e of entries) out.push(e.value && normalizeUnitBill(e.value));
  }
  return out;
}

const TENANT_INDEX_BUILT: Deno.KvKey = ["unit_bills_by_tenant_built"];

/** Writes the tenant index of bills written before it existed (once per store). */
const ensureTenantIndex = oncePerStore(async (kv: Deno.Kv): Promise<void> => {
  if ((await kv.get(TENANT_INDEX_BUILT)).value) return;
  let op = kv.atomic();
  let staged = 0;
  for await (const e of kv.list<StoredUnitBill>({ prefix: ["unit_bills"] })) {
    const key = tenantIndexKey(e.value);
    if (!key) continue;
    op.set(key, e.key);
    if (++staged % 500 === 0) {
      await op.commit();
      op = kv.atomic();
    }
  }
  await op.set(TENANT_INDEX_BUILT, true).commit();
});

const byKeyOrder = (a: StoredUnitBill, b: StoredUnitBill) =>
  a.station_id - b.station_id ||
  (periodOfBill(a) < periodOfBill(b) ? -1 : periodOfBill(a) > periodOfBill(b) ? 1 : 0) ||
  (a.unit_id < b.unit_id ? -1 : a.unit_id > b.unit_id ? 1 : 0);

/** The unit bills of one tenant (read through the tenant index), oldest key first. */
export async function listUnitBillsOfTenant(
  kv: Deno.Kv,
  tenantId: number,
): Promise<StoredUnitBill[]> {
  await ensureTenantIndex(kv);
  const index: Deno.KvEntry<Deno.KvKey>[] = [];
  for await (const e of kv.list<Deno.KvKey>({ prefix: ["unit_bills_by_tenant", tenantId] })) {
    index.push(e);
  }
  const out: StoredUnitBill[] = [];
  for (let i = 0; i < index.length; i += 10) {
    const part = index.slice(i, i + 10);
    const bills = await kv.getMany<StoredUnitBill[]>(part.map((e) => e.value));
    bills.forEach((e, j) => {
      const v = e.value;
      if (v && v.id === part[j].key[2] && v.tenant_id === tenantId) out.push(normalizeUnitBill(v));
    });
  }
  return out.sort(byKeyOrder);
}

/** Unit bills, optionally of one station (and one period), oldest key first. */
export async function listUnitBills(
  kv: Deno.Kv,
  stationId?: number,
  period?: string,
): Promise<StoredUnitBill[]> {
  const prefix = stationId === undefined
    ? ["unit_bills"]
    : period === undefined
    ? ["unit_bills", stationId]
    : ["unit_bills", stationId, period];
  return (await listUnitBillEntries(kv, { prefix })).map((e) => e.value);
}

/** A station's unit bills of `period` and of every period after it (key order). */
export async function listUnitBillsSince(
  kv: Deno.Kv,
  stationId: number,
  period: string,
): Promise<StoredUnitBill[]> {
  const selector = { start: ["unit_bills", stationId, period], end: ["unit_bills", stationId + 1] };
  return (await listUnitBillEntries(kv, selector)).map((e) => e.value);
}

/** Ids of finalized bills whose `bill_created` notice is still to be written, at most `limit`. */
export async function billsWithPendingNotices(kv: Deno.Kv, limit: number): Promise<number[]> {
  const out: number[] = [];
  for await (const e of kv.list({ prefix: NOTICES_PENDING }, { limit })) {
    out.push(e.key[1] as number);
  }
  return out;
}

/** Marks the notices of these bills written. */
export async function clearPendingNotices(kv: Deno.Kv, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const op = kv.atomic();
    for (const id of ids.slice(i, i + 500)) op.delete([...NOTICES_PENDING, id]);
    await op.commit();
  }
}

/** Customer bills, optionally of one station, oldest key first. */
export async function listCustomerBills(
  kv: Deno.Kv,
  stationId?: number,
): Promise<StoredCustomerBill[]> {
  const out: StoredCustomerBill[] = [];
  const prefix = stationId === undefined ? ["customer_bills"] : ["customer_bills", stationId];
  for await (const e of kv.list<StoredCustomerBill>({ prefix })) out.push(e.value);
  return out;
}

/** A unit bill by id, with the entry to check a later write against; null when unknown. */
export async function getUnitBillEntry(
  kv: Deno.Kv,
  id: number,
): Promise<Deno.KvEntry<StoredUnitBill> | null> {
  const idx = await kv.get<[number, string, string]>(["unit_bill_ids", id]);
  if (!idx.value) return null;
  const entry = await kv.get<StoredUnitBill>(unitKey(...idx.value));
  if (!entry.value || entry.value.id !== id) return null;
  return { ...entry, value: normalizeUnitBill(entry.value) } as Deno.KvEntry<StoredUnitBill>;
}

/** A unit bill by id, or null. */
export async function getUnitBill(kv: Deno.Kv, id: number): Promise<StoredUnitBill | null> {
  return (await getUnitBillEntry(kv, id))?.value ?? null;
}

/** A customer bill by id, with its entry; null when unknown. */
export async function getCustomerBillEntry(
  kv: Deno.Kv,
  id: number,
): Promise<Deno.KvEntry<StoredCustomerBill> | null> {
  const idx = await kv.get<[number, string]>(["customer_bill_ids", id]);
  if (!idx.value) return null;
  const entry = await kv.get<StoredCustomerBill>(customerKey(...idx.value));
  if (!entry.value || entry.value.id !== id) return null;
  return entry as Deno.KvEntry<StoredCustomerBill>;
}

/**
 * Writes a changed unit bill if it is unchanged since `entry` was read (its indexes follow);
 * false when it changed meanwhile (read again and retry).
 */
export async function updateUnitBill(
  kv: Deno.Kv,
  entry: Deno.KvEntry<StoredUnitBill>,
  next: StoredUnitBill,
  audit?: AuditStamp,
): Promise<boolean> {
  const op = kv.atomic().check(entry);
  putUnitBill(op, entry.value, next);
  if (audit) stageAudit(op, audit, billFields(entry.value), billFields(next));
  return (await op.commit()).ok;
}

/** Every bill of a station and period, with the entries to check a later commit against. */
interface PeriodBills {
  units: Deno.KvEntry<StoredUnitBill>[];
  customer: Deno.KvEntryMaybe<StoredCustomerBill>;
}

/** Reads every unit bill of a station and period and its customer bill. */
export async function readPeriodBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
): Promise<PeriodBills> {
  return {
    units: await listUnitBillEntries(kv, { prefix: ["unit_bills", stationId, period] }),
    customer: await kv.get<StoredCustomerBill>(customerKey(stationId, period)),
  };
}

/** A change to the bills of one station and period, committed at once. */
interface PeriodChange {
  /** Unit bills to write (changed versions of bills read). */
  set?: readonly StoredUnitBill[];
  /** Unit bills to remove. */
  remove?: readonly StoredUnitBill[];
  /** The customer bill to write, `"delete"` to remove it, or undefined to leave it. */
  customer?: StoredCustomerBill | "delete";
}

/**
 * Commits a change to a station's bills of a period in ONE atomic commit, checked against
 * everything `read` saw (so a concurrent run or payment makes it fail: read again and retry).
 */
export async function commitPeriodChange(
  kv: Deno.Kv,
  read: PeriodBills,
  change: PeriodChange,
  audit?: AuditStamp,
): Promise<boolean> {
  const op = kv.atomic().check(read.customer);
  for (const e of read.units) op.check(e);
  const before = new Map(read.units.map((e) => [e.value.id, e.value]));
  if (audit) {
    // The audited bill: the one the change writes, or the one it removes.
    const bill = change.set?.[0] ?? change.remove?.[0];
    const was = bill ? before.get(bill.id) ?? null : null;
    const is = change.set?.[0] ?? null;
    stageAudit(op, audit, was && billFields(was), is && billFields(is));
  }
  for (const b of change.set ?? []) putUnitBill(op, before.get(b.id) ?? null, b);
  for (const b of change.remove ?? []) removeUnitBill(op, before.get(b.id) ?? b);
  if (change.customer) touchBills(op, read.customer.key[1] as number);
  if (change.customer === "delete") {
    const c = read.customer.value;
    if (c) removeCustomerBill(op, read.customer.key, c);
  } else if (change.customer) {
    putCustomerBill(op, read.customer.key, read.customer.value, change.customer);
  }
  return (await op.commit()).ok;
}

/** Deletes a customer bill if unchanged since `entry` was read; false when it changed. */
export async function deleteCustomerBill(
  kv: Deno.Kv,
  entry: Deno.KvEntry<StoredCustomerBill>,
  audit?: AuditStamp,
): Promise<boolean> {
  const op = kv.atomic().check(entry);
  removeCustomerBill(op, entry.key, entry.value);
  if (audit) stageAudit(op, audit, entry.value, null);
  touchBills(op, entry.value.station_id);
  const res = await op.commit();
  return res.ok;
}

/**
 * Ids of finalized bills that may become overdue whose due date is before `date`
 * (`YYYY-MM-DD`), oldest due first, at most `limit`.
 */
export async function billsDueBefore(kv: Deno.Kv, date: string, limit: number): Promise<number[]> {
  const out: number[] = [];
  const iter = kv.list<null>({ start: ["unit_bills_due"], end: ["unit_bills_due", date] }, {
    limit,
  });
  for await (const e of iter) out.push(e.key[2] as number);
  return out;
}

/**
 * What the audit trail keeps of a unit bill: its fields without the long payment history (its
 * last step only) and the pricing details, which a recalculation's reason and totals explain.
 */
function billFields(bill: StoredUnitBill): object {
  const { payment_history, calculation_details: _d, zone_snapshot: _z, ...rest } = bill;
  return { ...rest, last_change: payment_history.at(-1) ?? null };
}
