/**
 * The keys of the bill families (the layout is written at the top of `bills.ts`) and the
 * staging of a unit bill's writes with its indexes: internal to `bills.ts` and `bills_run.ts`.
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

/** The tenant index key of a bill that has a tenant, or null. */
export function tenantIndexKey(b: StoredUnitBill): Deno.KvKey | null {
  return b.tenant_id === null ? null : ["unit_bills_by_tenant", b.tenant_id, b.id];
}

/**
 * The revisions of the bills: every commit that writes a unit or customer bill adds 1 to the
 * global one and to its station's (sums, so writers never conflict on them); readers that keep
 * bills in memory compare them (bill_facts.ts).
 */
export const BILLS_REVISION: Deno.KvKey = ["bills_revision"];
/** The prefix of the stations' revisions: `["bills_station_revision", stationId]`. */
export const STATION_REVISIONS: Deno.KvKey = ["bills_station_revision"];

/** Stages the increment of {@link BILLS_REVISION} and of the station's revision. */
export function touchBills(op: Deno.AtomicOperation, stationId: number) {
  op.sum(BILLS_REVISION, 1n);
  op.sum([...STATION_REVISIONS, stationId], 1n);
}

/** Stages the writes of one unit bill: the bill, its id, due-date and tenant indexes. */
export function putUnitBill(
  op: Deno.AtomicOperation,
  old: StoredUnitBill | null,
  bill: StoredUnitBill,
) {
  const key = unitKey(bill.station_id, periodOfBill(bill), bill.unit_id);
  op.set(key, bill);
  if (!old) op.set(["unit_bill_ids", bill.id], [bill.station_id, periodOfBill(bill), bill.unit_id]);
  const before = old ? dueKey(old) : null;
  const after = dueKey(bill);
  if (before && (!after || before.join("|") !== after.join("|"))) op.delete(before);
  if (after) op.set(after, null);
  const tenantBefore = old ? tenantIndexKey(old) : null;
  const tenantAfter = tenantIndexKey(bill);
  if (tenantBefore && old!.tenant_id !== bill.tenant_id) op.delete(tenantBefore);
  if (tenantAfter) op.set(tenantAfter, key);
  touchBills(op, bill.station_id);
}

/** Stages the removal of one unit bill and its indexes. */
export function removeUnitBill(op: Deno.AtomicOperation, bill: StoredUnitBill) {
  op.delete(unitKey(bill.station_id, periodOfBill(bill), bill.unit_id));
  op.delete(["unit_bill_ids", bill.id]);
  const due = dueKey(bill);
  if (due) op.delete(due);
  const tenant = tenantIndexKey(bill);
  if (tenant) op.delete(tenant);
  touchBills(op, bill.station_id);
}

export const unitKey = (stationId: number, period: string, unitId: string): Deno.KvKey => [
  "unit_bills",
  stationId,
  period,
  unitId,
];
export const customerKey = (stationId: number, period: string): Deno.KvKey => [
  "customer_bills",
  stationId,
  period,
];
