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
 * - `["customer_bills", stationId, period]` → {@link StoredCustomerBill}: one per station and period
 * - `["customer_bill_ids", id]` → `[stationId, period]` (ids from the sequence `customer_bills`)
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
import {
  type CustomerBill,
  type CustomerBillDraft,
  isPaymentStatus,
  PAYMENT_TRANSITIONS,
  periodOfBill,
  type UnitBill,
  type UnitBillDraft,
} from "../core/bill.ts";

/** Reserves `n` consecutive ids of `collection` (the `["seq", collection]` of db/kv.ts); the first. */
async function reserveIds(kv: Deno.Kv, collection: string, n: number): Promise<number> {
  const key = ["seq", collection];
  for (;;) {
    const cur = await kv.get<number>(key);
    const first = (cur.value ?? 0) + 1;
    if ((await kv.atomic().check(cur).set(key, first + n - 1).commit()).ok) return first;
  }
}

/** A unit bill as stored (core/bill.ts); amounts in integer cents. */
export type StoredUnitBill = UnitBill;
/** A customer (station) bill as stored (core/bill.ts); amounts in integer cents. */
export type StoredCustomerBill = CustomerBill;
export type { CustomerBillDraft, UnitBillDraft };

/**
 * A unit bill read from the store with the fields added since it was written (bills made
 * before finalization and payment states existed) filled in.
 */
export function normalizeUnitBill(v: StoredUnitBill): StoredUnitBill {
  if (v.payment_history !== undefined && v.late_fee !== undefined) return v;
  const status = isPaymentStatus(v.payment_status) ? v.payment_status : "pending";
  return {
    ...v,
    payment_status: status,
    payment_due_date: v.is_finalized ? v.payment_due_date ?? null : null,
    late_fee: v.late_fee ?? 0,
    spei_clabe: v.spei_clabe ?? null,
    spei_reference: v.spei_reference ?? null,
    spei_bank: v.spei_bank ?? null,
    spei_expiry_date: v.spei_expiry_date ?? null,
    finalized_at: v.finalized_at ?? (v.is_finalized ? v.updated_at : null),
    payment_history: v.payment_history ?? [],
  };
}

/** The due-date index key of a bill that a sweep may move to overdue, or null. */
function dueKey(b: StoredUnitBill): Deno.KvKey | null {
  if (!b.is_finalized || b.payment_due_date === null) return null;
  if (!PAYMENT_TRANSITIONS[b.payment_status].includes("overdue")) return null;
  return ["unit_bills_due", b.payment_due_date, b.id];
}

/** Stages the writes of one unit bill: the bill, its id index and its due-date index. */
function putUnitBill(op: Deno.AtomicOperation, old: StoredUnitBill | null, bill: StoredUnitBill) {
  const key = unitKey(bill.station_id, periodOfBill(bill), bill.unit_id);
  op.set(key, bill);
  if (!old) op.set(["unit_bill_ids", bill.id], [bill.station_id, periodOfBill(bill), bill.unit_id]);
  const before = old ? dueKey(old) : null;
  const after = dueKey(bill);
  if (before && (!after || before.join("|") !== after.join("|"))) op.delete(before);
  if (after) op.set(after, null);
}

/** Stages the removal of one unit bill and its indexes. */
function removeUnitBill(op: Deno.AtomicOperation, bill: StoredUnitBill) {
  op.delete(unitKey(bill.station_id, periodOfBill(bill), bill.unit_id));
  op.delete(["unit_bill_ids", bill.id]);
  const due = dueKey(bill);
  if (due) op.delete(due);
}

const unitKey = (stationId: number, period: string, unitId: string): Deno.KvKey => [
  "unit_bills",
  stationId,
  period,
  unitId,
];
const customerKey = (stationId: number, period: string): Deno.KvKey => [
  "customer_bills",
  stationId,
  period,
];

/** The stored bills of one station and period, with versionstamps for the atomic write. */
export interface StationBills {
  units: Map<string, Deno.KvEntryMaybe<StoredUnitBill>>;
  customer: Deno.KvEntryMaybe<StoredCustomerBill>;
}

/** Reads the bills of the given units of a station for a period, and its customer bill. */
export async function readStationBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  unitIds: readonly string[],
): Promise<StationBills> {
  return (await readStationsBills(kv, period, [{ stationId, unitIds }]))[0];
}

/** {@link readStationBills} for several stations at once (10 keys per read). */
export async function readStationsBills(
  kv: Deno.Kv,
  period: string,
  stations: readonly { stationId: number; unitIds: readonly string[] }[],
): Promise<StationBills[]> {
  const keys = stations.flatMap(({ stationId, unitIds }) => [
    ...unitIds.map((u) => unitKey(stationId, period, u)),
    customerKey(stationId, period),
  ]);
  const entries: Deno.KvEntryMaybe<unknown>[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    entries.push(...await kv.getMany<unknown[]>(keys.slice(i, i + 10)));
  }
  let at = 0;
  return stations.map(({ unitIds }) => {
    const units = new Map<string, Deno.KvEntryMaybe<StoredUnitBill>>();
    for (const u of unitIds) {
      const e = entries[at++] as Deno.KvEntryMaybe<StoredUnitBill>;
      units.set(u, e.value ? { ...e, value: normalizeUnitBill(e.value) } : e);
    }
    return { units, customer: entries[at++] as Deno.KvEntryMaybe<StoredCustomerBill> };
  });
}

/** Hands out `n` consecutive ids of a collection (`bills`, `customer_bills`); the first. */
export type IdSource = (collection: string, n: number) => Promise<number>;

/**
 * An {@link IdSource} that reserves ids `size` at a time, for a run that writes many bills:
 * one sequence write per block instead of one per station. Ids of a block left unused when
 * the run ends are never handed out (ids have gaps, as after a failed commit).
 */
export function idBlocks(kv: Deno.Kv, size = 500): IdSource {
  const blocks = new Map<string, { next: number; end: number }>();
  const pending = new Map<string, Promise<void>>();
  const take = async (collection: string, n: number): Promise<number> => {
    for (;;) {
      const b = blocks.get(collection);
      if (b && b.next + n <= b.end) {
        b.next += n;
        return b.next - n;
      }
      let refill = pending.get(collection);
      if (!refill) {
        const count = Math.max(size, n);
        refill = reserveIds(kv, collection, count).then((first) => {
          blocks.set(collection, { next: first, end: first + count });
        }).finally(() => pending.delete(collection));
        pending.set(collection, refill);
      }
      await refill;
    }
  };
  return take;
}

/** One unit bill of a station write and what was read before computing it. */
export interface UnitWrite {
  draft: UnitBillDraft;
  prev: Deno.KvEntryMaybe<StoredUnitBill>;
}

/** The outcome of {@link writeStationBills}. */
export type StationWriteResult =
  | { ok: false; reason: "conflict" }
  | {
    ok: true;
    /** Unit bills created, updated and left alone (finalized). */
    created: StoredUnitBill[];
    updated: StoredUnitBill[];
    skipped: StoredUnitBill[];
    customer: { bill: StoredCustomerBill; outcome: "created" | "updated" | "skipped" } | null;
  };

/** What one station writes: its unit bills and customer bill, with what was read before. */
export interface StationWrite {
  stationId: number;
  units: readonly UnitWrite[];
  customer: {
    draft: CustomerBillDraft;
    prev: Deno.KvEntryMaybe<StoredCustomerBill>;
    /** Write it even when it is finalized: one of its unit bills is created or changed. */
    restate?: boolean;
  } | null;
}

/** What a station write did. */
export type StationWritten = Extract<StationWriteResult, { ok: true }>;

/**
 * Writes a station's unit bills and customer bill for a period in one atomic commit. A bill
 * whose previous version is finalized is left alone; a draft keeps its id, created_at and
 * payment fields. Answers `conflict` when something changed since `prev` was read.
 */
export async function writeStationBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  units: readonly UnitWrite[],
  customer: StationWrite["customer"],
  now: number,
  ids: IdSource = (collection, n) => reserveIds(kv, collection, n),
): Promise<StationWriteResult> {
  const res = await writeStationsBills(kv, period, [{ stationId, units, customer }], now, ids);
  return res === null ? { ok: false, reason: "conflict" } : res[0];
}

/**
 * {@link writeStationBills} for several stations in ONE atomic commit (all or none): null when
 * something changed since it was read. The caller keeps the commit within Deno KV's limits
 * (checks: one per bill).
 */
export async function writeStationsBills(
  kv: Deno.Kv,
  period: string,
  stations: readonly StationWrite[],
  now: number,
  ids: IdSource = (collection, n) => reserveIds(kv, collection, n),
): Promise<StationWritten[] | null> {
  const at = new Date(now).toISOString();
  const op = kv.atomic();
  const out: StationWritten[] = [];
  for (const s of stations) out.push(await stage(op, period, s, at, ids));
  const res = await op.commit();
  return res.ok ? out : null;
}

async function stage(
  op: Deno.AtomicOperation,
  period: string,
  { stationId, units, customer }: StationWrite,
  at: string,
  ids: IdSource,
): Promise<StationWritten> {
  const created: StoredUnitBill[] = [];
  const updated: StoredUnitBill[] = [];
  const skipped: StoredUnitBill[] = [];
  const fresh = units.filter((u) => u.prev.value === null).length;
  let nextBillId = fresh > 0 ? await ids("bills", fresh) : 0;
  for (const { draft, prev } of units) {
    op.check({ key: unitKey(stationId, period, draft.unit_id), versionstamp: prev.versionstamp });
    const old = prev.value;
    if (old?.is_finalized) {
      skipped.push(old);
      continue;
    }
    if (old) {
      // A draft is replaced (drafts carry no payment); it keeps its id and creation time.
      const bill: StoredUnitBill = {
        ...draft,
        id: old.id,
        created_at: old.created_at,
        updated_at: at,
      };
      putUnitBill(op, normalizeUnitBill(old), bill);
      updated.push(bill);
    } else {
      const id = nextBillId++;
      const bill: StoredUnitBill = { ...draft, id, created_at: at, updated_at: at };
      putUnitBill(op, null, bill);
      created.push(bill);
    }
  }
  let cust: StationWritten["customer"] = null;
  if (customer) {
    const key = customerKey(stationId, period);
    op.check({ key, versionstamp: customer.prev.versionstamp });
    const old = customer.prev.value;
    if (old?.is_finalized && !customer.restate) {
      cust = { bill: old, outcome: "skipped" };
    } else if (old) {
      const bill = {
        ...customer.draft,
        is_finalized: customer.draft.is_finalized || old.is_finalized,
        id: old.id,
        created_at: old.created_at,
        updated_at: at,
      };
      op.set(key, bill);
      cust = { bill, outcome: "updated" };
    } else {
      const id = await ids("customer_bills", 1);
      const bill = { ...customer.draft, id, created_at: at, updated_at: at };
      op.set(key, bill);
      op.set(["customer_bill_ids", id], [stationId, period]);
      cust = { bill, outcome: "created" };
    }
  }
  return { ok: true, created, updated, skipped, customer: cust };
}

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

/** Unit bills, optionally of one station (and one period), oldest key first. */
export async function listUnitBills(
  kv: Deno.Kv,
  stationId?: number,
  period?: string,
): Promise<StoredUnitBill[]> {
  const out: StoredUnitBill[] = [];
  const prefix = stationId === undefined
    ? ["unit_bills"]
    : period === undefined
    ? ["unit_bills", stationId]
    : ["unit_bills", stationId, period];
  for await (const e of kv.list<StoredUnitBill>({ prefix })) out.push(normalizeUnitBill(e.value));
  return out;
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
): Promise<boolean> {
  const op = kv.atomic().check(entry);
  putUnitBill(op, entry.value, next);
  return (await op.commit()).ok;
}

/** Every bill of a station and period, with the entries to check a later commit against. */
export interface PeriodBills {
  units: Deno.KvEntry<StoredUnitBill>[];
  customer: Deno.KvEntryMaybe<StoredCustomerBill>;
}

/** Reads every unit bill of a station and period and its customer bill. */
export async function readPeriodBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
): Promise<PeriodBills> {
  const units: Deno.KvEntry<StoredUnitBill>[] = [];
  for await (const e of kv.list<StoredUnitBill>({ prefix: ["unit_bills", stationId, period] })) {
    units.push({ ...e, value: normalizeUnitBill(e.value) });
  }
  return { units, customer: await kv.get<StoredCustomerBill>(customerKey(stationId, period)) };
}

/** A change to the bills of one station and period, committed at once. */
export interface PeriodChange {
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
): Promise<boolean> {
  const op = kv.atomic().check(read.customer);
  for (const e of read.units) op.check(e);
  const before = new Map(read.units.map((e) => [e.value.id, e.value]));
  for (const b of change.set ?? []) putUnitBill(op, before.get(b.id) ?? null, b);
  for (const b of change.remove ?? []) removeUnitBill(op, before.get(b.id) ?? b);
  if (change.customer === "delete") {
    const c = read.customer.value;
    if (c) op.delete(read.customer.key).delete(["customer_bill_ids", c.id]);
  } else if (change.customer) op.set(read.customer.key, change.customer);
  return (await op.commit()).ok;
}

/** Deletes a customer bill if unchanged since `entry` was read; false when it changed. */
export async function deleteCustomerBill(
  kv: Deno.Kv,
  entry: Deno.KvEntry<StoredCustomerBill>,
): Promise<boolean> {
  const res = await kv.atomic().check(entry).delete(entry.key).delete([
    "customer_bill_ids",
    entry.value.id,
  ]).commit();
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
