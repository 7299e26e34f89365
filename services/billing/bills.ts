/**
 * Bills as their readers and the admin use them (issue 9): who sees which bill, deleting a
 * bill (its station bill recomputed in the same commit), recording a payment received outside
 * the processor, and a station's payment status. The rules are core/bill.ts's; the keys
 * db/bills.ts's.
 */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { PAYMENT_INPUT_ERRORS, type PaymentRecord } from "../../core/billing_input.ts";
import type { Zone } from "../../core/zone.ts";
import { computeCustomerBill } from "../../core/customer_bill.ts";
import { kindOfBill, periodOfBill, restatedCustomerBill } from "../../core/bill.ts";
import {
  changePayment,
  deleteBlocker,
  hasLiveReference,
  visibleToTenant,
} from "../../core/payment.ts";
import { clockOf } from "../platform/clock.ts";
import type { PeriodKind } from "../../core/periods.ts";
import {
  commitPeriodChange,
  deleteCustomerBill,
  getCustomerBillEntry,
  getUnitBillEntry,
  listCustomerBills,
  listUnitBills,
  listUnitBillsOfTenant,
  readPeriodBills,
  type StoredCustomerBill,
  type StoredUnitBill,
  updateUnitBill,
} from "../../db/bills.ts";
import { getDevice, stationIdsOfCustomer } from "../../db/devices.ts";
import { getZone } from "../../db/zones.ts";
import { getUser, listUsers } from "../../db/users.ts";
import { createNotifications, type NewNotification } from "../../db/notifications.ts";
import { conflict, invalid, notFound } from "../refusal.ts";
import { billNotice } from "./notices.ts";

/** Locale keys of the refusals of this module. */
const BILL_ERRORS = {
  notFound: "billing.errors.bill_not_found",
  paid: "billing.errors.bill_paid",
  liveReference: "billing.errors.bill_live_reference",
  liveReferencePayment: "payments.errors.live_reference",
  notPayable: "billing.errors.bill_not_payable",
  changed: "billing.errors.bill_changed",
  paymentDate: PAYMENT_INPUT_ERRORS.paymentDate,
} as const;

/** Filters of a bill list. */
interface BillFilter {
  kind: PeriodKind;
  station_id?: number | null;
  period?: string | null;
  unit_id?: string | null;
  zone_id?: number | null;
}

const matches = (
  b: { billing_month: string | null; station_id: number; zone_id: number },
  f: BillFilter,
) =>
  kindOfBill(b) === f.kind &&
  (f.period == null || periodOfBill(b as StoredUnitBill) === f.period) &&
  (f.station_id == null || b.station_id === f.station_id) &&
  (f.zone_id == null || b.zone_id === f.zone_id);

/**
 * The unit bills `user` may see: the admin every bill; a customer the finalized bills of its
 * stations; a tenant its own finalized bills with a total above 0 (drafts are previews that
 * only the admin sees).
 */
export async function unitBillsFor(
  deps: Deps,
  user: User,
  f: BillFilter,
): Promise<StoredUnitBill[]> {
  const stations = user.role === "customer"
    ? new Set(await stationIdsOfCustomer(deps.kv, user.id))
    : null;
  // A tenant's or an owner's bills are read without the fleet's.
  const all = f.station_id != null
    ? await listUnitBills(deps.kv, f.station_id)
    : user.role === "user"
    ? await listUnitBillsOfTenant(deps.kv, user.id)
    : stations
    ? (await Promise.all([...stations].sort((a, b) => a - b).map((s) => listUnitBills(deps.kv, s))))
      .flat()
    : await listUnitBills(deps.kv);
  return all.filter((b) =>
    matches(b, f) && (f.unit_id == null || b.unit_id === f.unit_id) &&
    (user.role === "admin" ||
      (user.role === "customer" && stations!.has(b.station_id) && b.is_finalized) ||
      (user.role === "user" && b.tenant_id === user.id && visibleToTenant(b)))
  );
}

/** The station bills `user` may see: the admin every one, a customer its own finalized ones. */
export async function customerBillsFor(
  deps: Deps,
  user: User,
  f: BillFilter,
): Promise<StoredCustomerBill[]> {
  if (user.role === "user") return [];
  const all = await listCustomerBills(deps.kv, f.station_id ?? undefined);
  const stations = user.role === "customer"
    ? new Set(await stationIdsOfCustomer(deps.kv, user.id))
    : null;
  return all.filter((b) =>
    matches(b, f) && (stations === null || (stations.has(b.station_id) && b.is_finalized))
  );
}

/** The zone a bill was priced with: its snapshot, else the zone as it is now. */
async function zoneOfBill(deps: Deps, bill: StoredUnitBill): Promise<Zone | null> {
  return bill.zone_snapshot ?? await getZone(deps.kv, bill.zone_id);
}

/**
 * Deletes a unit bill: refused when it is paid or waits on a live SPEI reference (conflict).
 * Its station bill of the period is recomputed from the bills that remain, in the same commit
 * (and removed with the last one).
 */
export async function deleteUnitBillById(deps: Deps, id: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const entry = await getUnitBillEntry(deps.kv, id);
    if (!entry) throw notFound(BILL_ERRORS.notFound);
    const bill = entry.value;
    const blocker = deleteBlocker(bill, deps.now());
    if (blocker) throw conflict(blocker === "paid" ? BILL_ERRORS.paid : BILL_ERRORS.liveReference);
    const read = await readPeriodBills(deps.kv, bill.station_id, periodOfBill(bill));
    const rest = read.units.map((e) => e.value).filter((b) => b.id !== id);
    let customer: StoredCustomerBill | "delete" | undefined;
    const cust = read.customer.value;
    if (cust && rest.length === 0) customer = "delete";
    else if (cust) {
      const zone = await zoneOfBill(deps, bill);
      if (zone) {
        const at = new Date(deps.now()).toISOString();
        customer = restatedCustomerBill(cust, computeCustomerBill(zone, rest), at);
      }
    }
    const audit = auditStamp(deps, "bill.delete", `bill:${id}`);
    if (await commitPeriodChange(deps.kv, read, { remove: [bill], customer }, audit)) return;
  }
  throw conflict(BILL_ERRORS.changed);
}

/** Deletes a customer (station) bill; a billing run makes it again from the unit bills. */
export async function deleteCustomerBillById(deps: Deps, id: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const entry = await getCustomerBillEntry(deps.kv, id);
    if (!entry) throw notFound(BILL_ERRORS.notFound);
    const audit = auditStamp(deps, "bill.delete", `station_bill:${id}`);
    if (await deleteCustomerBill(deps.kv, entry, audit)) return;
  }
  throw conflict(BILL_ERRORS.changed);
}

/**
 * Records a payment received outside the processor (cash, direct transfer): the bill becomes
 * paid with the date, reference and note, kept in its history with who recorded it; the tenant
 * and the station's owner are told (`payment_received`). Refuses a bill that is a draft, has
 * nothing due or is already paid, or that waits on a live SPEI reference the tenant may still
 * pay (conflict), and a payment dated after today (invalid); the record comes validated
 * (core/billing_input.ts).
 */
export async function recordPayment(
  deps: Deps,
  id: number,
  record: PaymentRecord,
  actor: Pick<User, "id">,
): Promise<StoredUnitBill> {
  const clock = clockOf(deps);
  const now = clock.now();
  const today = clock.todayText();
  if (record.payment_date > today) throw invalid({ payment_date: BILL_ERRORS.paymentDate });
  for (let attempt = 0; attempt < 3; attempt++) {
    const entry = await getUnitBillEntry(deps.kv, id);
    if (!entry) throw notFound(BILL_ERRORS.notFound);
    const bill = entry.value;
    if (!visibleToTenant(bill) || bill.payment_status === "paid") {
      throw conflict(BILL_ERRORS.notPayable);
    }
    if (hasLiveReference(bill, now)) throw conflict(BILL_ERRORS.liveReferencePayment);
    const paid = changePayment(bill, "paid", {
      at: new Date(now).toISOString(),
      cause: "recorded_by_admin",
      by: String(actor.id),
      method: record.method,
      reference: record.reference || null,
      note: record.note || null,
    }, { payment_date: record.payment_date });
    const audit = auditStamp(deps, "payment.record", `bill:${id}`);
    if (!await updateUnitBill(deps.kv, entry, paid, audit)) continue;
    await notifyBill(deps, "payment_received", paid, { tenant: true, owner: true });
    return paid;
  }
  throw conflict(BILL_ERRORS.changed);
}

/**
 * Tells a bill's tenant, its station's owner and/or the admins about it; failures are logged,
 * not thrown.
 */
export async function notifyBill(
  deps: Deps,
  type: "bill_created" | "payment_overdue" | "payment_received",
  bill: StoredUnitBill,
  to: { tenant?: boolean; owner?: boolean; admins?: boolean },
): Promise<void> {
  try {
    const station = await getDevice(deps.kv, bill.station_id);
    if (!station) return;
    const ids = [
      to.tenant ? bill.tenant_id : null,
      to.owner ? station.customer_id : null,
      ...(to.admins ? (await listUsers(deps.kv, "admin")).map((u) => u.id) : []),
    ].filter((x): x is number => x !== null);
    const notes: NewNotification[] = [];
    for (const id of new Set(ids)) {
      const reader = await getUser(deps.kv, id);
      if (reader) notes.push(billNotice(type, bill, station, reader));
    }
    if (notes.length > 0) await createNotifications(deps.kv, notes, deps.now());
  } catch (e) {
    deps.log.log("error", "bill notice failed", { bill: bill.id, type, error: String(e) });
  }
}
