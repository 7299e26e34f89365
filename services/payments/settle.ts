/**
 * What a charge's state means for its bill (issue 12), for webhook events and the
 * reconciliation sweep alike: a charge Openpay reports `completed` with the bill's amount and
 * order id pays the bill (payment date, `payment_received` notices to the tenant, the station's
 * owner and the admins); a cancelled or expired one moves a bill waiting on it to
 * `reference_expired`; a failed one to `failed`. Anything that does not match a bill is flagged
 * for a person, once: a completed charge is closed whatever came of it (a duplicate payment is
 * flagged, not asked about again by every sweep). Every change is kept on the bill with its
 * cause.
 */
import type { Deps } from "../deps.ts";
import { amountDue, changePayment, type PaymentCause } from "../../core/payment.ts";
import { getUnitBillEntry, updateUnitBill } from "../../db/bills.ts";
import { addFlag, getCharge, putCharge, type StoredCharge } from "../../db/payments.ts";
import { type PaymentFlag } from "../../core/payment_events.ts";
import { notifyBill } from "../billing/mod.ts";
import type { OpenpayCharge } from "./openpay_client.ts";
import { billIdOfOrder } from "./orders.ts";

/** What came of a charge's state. */
export type SettleOutcome = "handled" | "ignored" | "flagged";

/** Where a change came from: an event (its type) or the sweep. */
interface SettleSource {
  event: string;
  cause: PaymentCause;
}

async function flag(
  deps: Deps,
  reason: PaymentFlag["reason"],
  source: SettleSource,
  charge: Pick<OpenpayCharge, "id" | "amount">,
  billId: number | null,
): Promise<SettleOutcome> {
  await addFlag(deps.kv, {
    at: new Date(deps.now()).toISOString(),
    reason,
    event_type: source.event,
    transaction_id: charge.id,
    bill_id: billId,
    amount: Number.isFinite(charge.amount) ? Math.round(charge.amount * 100) : null,
  });
  deps.log.log("warn", "payment flagged", { reason, charge: charge.id, bill: billId });
  return "flagged";
}

/**
 * Pays the bill of a charge that Openpay itself answered with (`fetched`, never the event's
 * copy) when it is completed with the bill's amount and order id.
 */
export async function settlePaid(
  deps: Deps,
  fetched: OpenpayCharge,
  source: SettleSource,
): Promise<SettleOutcome> {
  if (fetched.status !== "completed") return "ignored";
  const stored = await getCharge(deps.kv, fetched.id);
  const outcome = await payBill(deps, fetched, stored, source);
  if (outcome === "busy") return "ignored"; // the bill kept changing: left open for the sweep
  // Openpay's last word on the charge: closed, so the sweep does not ask (and flag) again.
  if (stored && stored.status !== "completed") {
    await putCharge(deps.kv, {
      ...stored,
      status: "completed",
      updated_at: new Date(deps.now()).toISOString(),
    });
  }
  return outcome;
}

async function payBill(
  deps: Deps,
  fetched: OpenpayCharge,
  stored: StoredCharge | null,
  source: SettleSource,
): Promise<SettleOutcome | "busy"> {
  const billId = stored?.bill_id ?? billIdOfOrder(fetched.order_id);
  const first = billId === null ? null : await getUnitBillEntry(deps.kv, billId);
  if (billId === null || !first) return flag(deps, "unknown_charge", source, fetched, billId);
  if (stored ? fetched.order_id !== stored.order_id : billIdOfOrder(fetched.order_id) !== billId) {
    return flag(deps, "wrong_order", source, fetched, billId);
  }
  const cents = Math.round(fetched.amount * 100);
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = attempt === 0 ? first : await getUnitBillEntry(deps.kv, billId);
    if (!entry) return flag(deps, "unknown_charge", source, fetched, billId);
    const bill = entry.value;
    if (cents !== (stored?.amount ?? amountDue(bill))) {
      return flag(deps, "wrong_amount", source, fetched, billId);
    }
    if (bill.payment_status === "paid") {
      // Paid by this very charge: nothing more. Paid another way (or by another charge) while
      // this one was still open: the tenant paid twice.
      const paidBy = bill.payment_history.findLast((c) => c.to === "paid");
      if (bill.openpay_charge_id === fetched.id && paidBy?.method === "spei") return "ignored";
      return flag(deps, "duplicate_payment", source, fetched, billId);
    }
    const at = new Date(deps.now()).toISOString();
    const paid = changePayment(bill, "paid", {
      at,
      cause: source.cause,
      by: null,
      method: "spei",
      reference: stored?.reference ?? bill.spei_reference,
      note: source.event,
    }, {
      openpay_charge_id: fetched.id,
      payment_date: (fetched.operation_date ?? at).slice(0, 10),
    });
    if (!await updateUnitBill(deps.kv, entry, paid)) continue;
    await notifyBill(deps, "payment_received", paid, { tenant: true, owner: true, admins: true });
    return "handled";
  }
  return "busy";
}

/**
 * Ends a bill's wait on a charge that Openpay cancelled, expired or failed: `reference_expired`
 * (or `failed`) when the bill still waits on that charge; nothing otherwise.
 */
export async function settleEnded(
  deps: Deps,
  chargeId: string,
  to: "reference_expired" | "failed",
  source: SettleSource,
): Promise<SettleOutcome> {
  const stored = await getCharge(deps.kv, chargeId);
  const at = new Date(deps.now()).toISOString();
  if (stored?.status === "in_progress") {
    await putCharge(deps.kv, {
      ...stored,
      status: to === "failed" ? "failed" : "cancelled",
      updated_at: at,
    });
  }
  if (!stored) return "ignored";
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await getUnitBillEntry(deps.kv, stored.bill_id);
    if (
      !entry || entry.value.payment_status !== "awaiting_spei_transfer" ||
      entry.value.openpay_charge_id !== chargeId
    ) return "ignored";
    const next = changePayment(entry.value, to, {
      at,
      cause: source.cause,
      by: null,
      note: source.event,
    });
    if (await updateUnitBill(deps.kv, entry, next)) return "handled";
  }
  return "ignored";
}
