/**
 * The statuses derived from a bill (spec 001 section 4): the status of a unit bill in the
 * lists and in the unit report, and a station's payment status. Pure.
 */
import type { BillPayment } from "./payment.ts";

/** The status of a unit bill in the lists, with its badge colour. */
export interface ListStatus {
  key: "recalculated" | "partially_saved" | "saved" | "estimate" | "not_saved";
  colour: "purple" | "yellow" | "green" | "red" | "blue" | "grey";
}

/** The fields of a unit bill (`core/bill.ts`'s `UnitBill`) the status derivations read. */
export interface StatusFields {
  is_finalized: boolean;
  is_estimation: boolean;
  override_reason: string | null;
  recalculation_method: string | null;
  created_by: string | null;
}

/**
 * The status of a unit bill in the lists (spec 001 section 4): finalized with an override
 * reason or a recalculation method is Recalculated; finalized with a creator is Partially
 * Saved; other finalized is Saved (red for an estimation, else green); a draft estimation is
 * Estimate (blue in the current period, else red); anything else Not Saved.
 */
export function listStatus(bill: StatusFields, isCurrentPeriod: boolean): ListStatus {
  if (bill.is_finalized) {
    if (bill.override_reason || bill.recalculation_method) {
      return { key: "recalculated", colour: "purple" };
    }
    if (bill.created_by) return { key: "partially_saved", colour: "yellow" };
    return { key: "saved", colour: bill.is_estimation ? "red" : "green" };
  }
  if (bill.is_estimation) return { key: "estimate", colour: isCurrentPeriod ? "blue" : "red" };
  return { key: "not_saved", colour: "grey" };
}

/** The status of a period row of the unit report. */
export interface ReportStatus {
  key: ListStatus["key"] | "partial_estimate" | "error" | "future";
  colour: ListStatus["colour"];
}

/**
 * The report status (spec 001 section 4): Future for a period not started; Recalculated for a
 * bill with an override reason or a recalculation method, or one updated more than 5 s after
 * it was created; otherwise as in the lists (also Not Saved for no bill). A change of payment
 * state (a reference, the payment, overdue) is no update of the bill: a paid bill reads Saved
 * here as in the lists.
 */
export function reportStatus(
  bill:
    | (StatusFields & {
      created_at: string;
      updated_at: string;
      payment_history?: readonly { at: string }[];
    })
    | null,
  timing: { future: boolean; current: boolean },
): ReportStatus {
  if (timing.future) return { key: "future", colour: "grey" };
  if (!bill) return { key: "not_saved", colour: "grey" };
  const paymentChange = (bill.payment_history ?? []).some((c) => c.at === bill.updated_at);
  const edited = !paymentChange &&
    Date.parse(bill.updated_at) - Date.parse(bill.created_at) > 5000;
  if (bill.override_reason || bill.recalculation_method || edited) {
    return { key: "recalculated", colour: "purple" };
  }
  return listStatus(bill, timing.current);
}

/** A station's payment status, from its finalized unit bills. */
export type StationPaymentStatus = "paid" | "due" | "overdue" | "other";

/**
 * A station's payment status (issue 9): `overdue` if any finalized unit bill is overdue, `due`
 * if any is unpaid, `paid` if all are paid, `other` when it has none.
 */
export function stationPaymentStatus(
  bills: readonly (Pick<StatusFields, "is_finalized"> & Pick<BillPayment, "payment_status">)[],
): StationPaymentStatus {
  const final = bills.filter((b) => b.is_finalized);
  if (final.length === 0) return "other";
  if (final.some((b) => b.payment_status === "overdue")) return "overdue";
  if (final.some((b) => b.payment_status !== "paid")) return "due";
  return "paid";
}
