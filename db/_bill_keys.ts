/**
 * The keys of the bill families (the layout is written at the top of `bills.ts`) and the
 * staging of a unit bill's writes with its indexes: internal to `bills.ts` and `bills_run.ts`.
 */
import {
  type CustomerBill,
  type CustomerBillDraft,
  periodOfBill,
  slotOf,
  type UnitBill,
  type UnitBillDraft,
} from "../core/bill.ts";
import { isPaymentStatus, nothingDue, PAYMENT_TRANSITIONS } from "../core/payment.ts";
import { type ListStatus, listStatus } from "../core/bill_status.ts";
import { readUnitBillDetails, readZoneSnapshot } from "../core/bill_details.ts";
import { billEvents, customerBillEvents } from "../core/messages.ts";
import { stageOutboxEvent } from "./outbox.ts";
import { stageInvoiceEvent, stageStationInvoiceEvent } from "./invoices.ts";

/** A unit bill as stored (core/bill.ts); amounts in integer cents. */
export type StoredUnitBill = UnitBill;
/** A customer (station) bill as stored (core/bill.ts); amounts in integer cents. */
export type StoredCustomerBill = CustomerBill;
export type { CustomerBillDraft, UnitBillDraft };

/**
 * A unit bill read from the store with the fields added since it was written (bills made
 * before finalization and payment states existed) filled in, and its details and zone
 * snapshot in the shapes of core/bill_details.ts (a bare list of tier lines, a snapshot that is
 * no zone).
 */
export function normalizeUnitBill(v: StoredUnitBill): StoredUnitBill {
  const details = readUnitBillDetails(v.calculation_details);
  const snapshot = readZoneSnapshot(v.zone_snapshot, v.zone_id);
  if (details !== v.calculation_details || snapshot !== v.zone_snapshot) {
    v = { ...v, calculation_details: details, zone_snapshot: snapshot };
  }
  if (v.part_key === undefined) {
    v = {
      ...v,
      part_key: null,
      tenancy_from: null,
      tenancy_to: null,
      missing_readings: null,
    };
  }
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

/** The unit bills a list selector finds, in key order, each read in the current shape. */
export async function listUnitBillEntries(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
): Promise<Deno.KvEntry<StoredUnitBill>[]> {
  const out: Deno.KvEntry<StoredUnitBill>[] = [];
  for await (const e of kv.list<StoredUnitBill>(selector)) {
    out.push({ ...e, value: normalizeUnitBill(e.value) });
  }
  return out;
}

/** The due-date index key of a bill that a sweep may move to overdue, or null. */
function dueKey(b: StoredUnitBill): Deno.KvKey | null {
  if (!b.is_finalized || b.payment_due_date === null || nothingDue(b)) return null;
  if (!PAYMENT_TRANSITIONS[b.payment_status].includes("overdue")) return null;
  return ["unit_bills_due", b.payment_due_date, b.id];
}

/**
 * The prefix of the bills whose `bill_created` notice is still to be written:
 * `["bill_notices_pending", id]` → null, set in the commit that finalizes a bill with a tenant
 * and a total above 0 and removed once its notice is written (services/billing/notices.ts), so a
 * run killed between the two loses no notice.
 */
export const NOTICES_PENDING: Deno.KvKey = ["bill_notices_pending"];

/** The tenant index key of a bill that has a tenant, or null. */
export function tenantIndexKey(b: StoredUnitBill): Deno.KvKey | null {
  return b.tenant_id === null ? null : ["unit_bills_by_tenant", b.tenant_id, b.id];
}

/**
 * The revisions of the bills: every commit that writes a unit or customer bill adds 1 to the
 * global one and to the revision of each station it writes bills of (sums, so writers never
 * conflict on them); readers that keep bills in memory compare them (bill_facts.ts).
 */
export const BILLS_REVISION: Deno.KvKey = ["bills_revision"];
/** The prefix of the stations' revisions: `["bills_station_revision", stationId]`. */
export const STATION_REVISIONS: Deno.KvKey = ["bills_station_revision"];

/** The stations whose revisions an atomic operation already adds 1 to. */
const touched = new WeakMap<Deno.AtomicOperation, Set<number>>();

/**
 * Stages the increment of {@link BILLS_REVISION} and of the station's revision, once per
 * commit (a commit of many bills stays within Deno KV's 1000 mutations).
 */
export function touchBills(op: Deno.AtomicOperation, stationId: number) {
  let stations = touched.get(op);
  if (!stations) touched.set(op, stations = new Set());
  if (stations.size === 0) op.sum(BILLS_REVISION, 1n);
  if (stations.has(stationId)) return;
  stations.add(stationId);
  op.sum([...STATION_REVISIONS, stationId], 1n);
}

/**
 * What the zone index keeps of a unit bill: enough to count, sort and page a zone and period's
 * list without reading the bills (the bill itself is at `["unit_bills", stationId, period,
 * unitId]`, the last two parts of the index key).
 */
export interface UnitBillSummary {
  id: number;
  /** The unit (the key's last part is the bill's slot, core/bill.ts `slotOf`). */
  unit_id?: string;
  tenant_id: number | null;
  energy_consumption: number;
  total_cost: number;
  is_finalized: boolean;
  /** The bill's list status key (core/bill_status.ts; only its colour depends on the period). */
  status: ListStatus["key"];
}

/** The summary of a bill kept in its zone index entry. */
export function summaryOf(b: StoredUnitBill): UnitBillSummary {
  return {
    id: b.id,
    unit_id: b.unit_id,
    tenant_id: b.tenant_id,
    energy_consumption: b.energy_consumption,
    total_cost: b.total_cost,
    is_finalized: b.is_finalized,
    status: listStatus(b, false).key,
  };
}

/** The zone index key of a unit bill: zone, period, then the bill key's station and unit. */
export function zoneIndexKey(b: StoredUnitBill): Deno.KvKey {
  return ["unit_bills_by_zone", b.zone_id, periodOfBill(b), b.station_id, slotOf(b)];
}

/** The counters of a zone and period's unit bills: all of them, or the finalized ones. */
type UnitCount = "all" | "finalized";
/** The prefix of the unit bill counters: `[..., zoneId, period, UnitCount]` → Deno.KvU64. */
export const UNIT_COUNTS: Deno.KvKey = ["unit_bills_count"];
export const unitCountKey = (zoneId: number, period: string, which: UnitCount): Deno.KvKey => [
  ...UNIT_COUNTS,
  zoneId,
  period,
  which,
];

/** The zone index key of a customer bill: zone, period, then the bill key's station. */
export function customerZoneKey(c: StoredCustomerBill): Deno.KvKey {
  return ["customer_bills_by_zone", c.zone_id, periodOfBill(c), c.station_id];
}
/** The prefix of the customer bill counters: `[..., zoneId, period]` → Deno.KvU64. */
export const CUSTOMER_COUNTS: Deno.KvKey = ["customer_bills_count"];
export const customerCountKey = (zoneId: number, period: string): Deno.KvKey => [
  ...CUSTOMER_COUNTS,
  zoneId,
  period,
];

const U64 = 1n << 64n;
const sameKey = (a: Deno.KvKey, b: Deno.KvKey) =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * Stages the changes of counters from `before` to `after` (each a list of counter keys the
 * bill counts in): +1 or -1 by wrapping `sum` (a decrement adds 2^64 - 1), none when equal.
 */
function recount(
  op: Deno.AtomicOperation,
  before: readonly Deno.KvKey[],
  after: readonly Deno.KvKey[],
) {
  const add = (k: Deno.KvKey, n: bigint) => {
    const sums = batched.get(op);
    if (!sums) return void op.sum(k, n);
    const id = JSON.stringify(k);
    sums.set(id, { key: k, n: ((sums.get(id)?.n ?? 0n) + n) % U64 });
  };
  for (const k of before) {
    if (!after.some((a) => sameKey(a, k))) add(k, U64 - 1n);
  }
  for (const k of after) {
    if (!before.some((b) => sameKey(b, k))) add(k, 1n);
  }
}

/** The counter changes of a batch commit, summed per counter until it commits. */
const batched = new WeakMap<Deno.AtomicOperation, Map<string, { key: Deno.KvKey; n: bigint }>>();

/**
 * An atomic operation for many bills at once (a billing run's group of stations): the bills'
 * counter changes are summed per counter and staged once, by {@link commitBatch}, so that a
 * commit of 99 bills of one zone and period spends one mutation per counter, not one per bill,
 * and stays within Deno KV's 1,000 mutations.
 */
export function batchOp(kv: Deno.Kv): Deno.AtomicOperation {
  const op = kv.atomic();
  batched.set(op, new Map());
  return op;
}

/** Stages the summed counter changes of a {@link batchOp} and commits it. */
export function commitBatch(
  op: Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (const { key, n } of batched.get(op)?.values() ?? []) if (n !== 0n) op.sum(key, n);
  batched.delete(op);
  return op.commit();
}

/** The counters a unit bill counts in. */
export function unitCountsOf(b: StoredUnitBill): Deno.KvKey[] {
  const period = periodOfBill(b);
  const all = unitCountKey(b.zone_id, period, "all");
  return b.is_finalized ? [all, unitCountKey(b.zone_id, period, "finalized")] : [all];
}

/**
 * Stages the writes of one unit bill: the bill, its id, due-date, tenant and zone indexes and
 * its zone and period's counters.
 */
export function putUnitBill(
  op: Deno.AtomicOperation,
  old: StoredUnitBill | null,
  bill: StoredUnitBill,
) {
  const key = unitKey(bill.station_id, periodOfBill(bill), slotOf(bill));
  op.set(key, bill);
  if (bill.is_finalized && !old?.is_finalized && bill.tenant_id !== null && bill.total_cost > 0) {
    op.set([...NOTICES_PENDING, bill.id], null);
  }
  // The messages this change causes go out from the same commit (issue 28).
  for (const event of billEvents(old, bill)) stageOutboxEvent(op, event);
  stageInvoiceEvent(op, old, bill); // its CFDI (issue 31), from the same commit
  if (!old) {
    op.set(["unit_bill_ids", bill.id], [bill.station_id, periodOfBill(bill), slotOf(bill)]);
  }
  const before = old ? dueKey(old) : null;
  const after = dueKey(bill);
  if (before && (!after || before.join("|") !== after.join("|"))) op.delete(before);
  if (after) op.set(after, null);
  const tenantBefore = old ? tenantIndexKey(old) : null;
  const tenantAfter = tenantIndexKey(bill);
  if (tenantBefore && old!.tenant_id !== bill.tenant_id) op.delete(tenantBefore);
  if (tenantAfter) op.set(tenantAfter, key);
  const zoneBefore = old ? zoneIndexKey(old) : null;
  const zoneAfter = zoneIndexKey(bill);
  if (zoneBefore && !sameKey(zoneBefore, zoneAfter)) op.delete(zoneBefore);
  op.set(zoneAfter, summaryOf(bill));
  recount(op, old ? unitCountsOf(old) : [], unitCountsOf(bill));
  touchBills(op, bill.station_id);
}

/** Stages the removal of one unit bill and its indexes, and its uncounting. */
export function removeUnitBill(op: Deno.AtomicOperation, bill: StoredUnitBill) {
  op.delete(unitKey(bill.station_id, periodOfBill(bill), slotOf(bill)));
  op.delete(["unit_bill_ids", bill.id]);
  const due = dueKey(bill);
  if (due) op.delete(due);
  const tenant = tenantIndexKey(bill);
  if (tenant) op.delete(tenant);
  op.delete(zoneIndexKey(bill));
  recount(op, unitCountsOf(bill), []);
  touchBills(op, bill.station_id);
}

/**
 * Stages the write of a customer bill at `key` (its station and period), its id, zone index
 * and counter. The caller adds the revisions ({@link touchBills}).
 */
export function putCustomerBill(
  op: Deno.AtomicOperation,
  key: Deno.KvKey,
  old: StoredCustomerBill | null,
  bill: StoredCustomerBill,
) {
  op.set(key, bill);
  for (const event of customerBillEvents(old, bill)) stageOutboxEvent(op, event);
  stageStationInvoiceEvent(op, old?.is_finalized ?? false, bill);
  if (!old) op.set(["customer_bill_ids", bill.id], key.slice(1));
  const zoneBefore = old ? customerZoneKey(old) : null;
  const zoneAfter = customerZoneKey(bill);
  if (zoneBefore && !sameKey(zoneBefore, zoneAfter)) op.delete(zoneBefore);
  op.set(zoneAfter, null);
  recount(
    op,
    old ? [customerCountKey(old.zone_id, periodOfBill(old))] : [],
    [customerCountKey(bill.zone_id, periodOfBill(bill))],
  );
}

/** Stages the removal of the customer bill at `key`, its id, zone index and counting. */
export function removeCustomerBill(
  op: Deno.AtomicOperation,
  key: Deno.KvKey,
  bill: StoredCustomerBill,
) {
  op.delete(key).delete(["customer_bill_ids", bill.id]).delete(customerZoneKey(bill));
  recount(op, [customerCountKey(bill.zone_id, periodOfBill(bill))], []);
}

/** The key of a unit bill: its station, period and slot (core/bill.ts `slotOf`). */
export const unitKey = (stationId: number, period: string, slot: string): Deno.KvKey => [
  "unit_bills",
  stationId,
  period,
  slot,
];
export const customerKey = (stationId: number, period: string): Deno.KvKey => [
  "customer_bills",
  stationId,
  period,
];
