/**
 * A charge the processor no longer knows (a local sandbox that lost its state, a charge removed
 * on Openpay's side): Openpay answers 404 for its id while it answers the merchant's list of
 * charges, which has none with that id. Whatever the processor is, such a reference cannot be
 * paid: the stored charge is marked `unknown` (no longer asked about), a flag puts it in the
 * admin's review (`charge_not_found`), and a bill still waiting on it moves to
 * `reference_expired` with the cause `reference_unknown`: the tenant sees the reference is no
 * longer valid, may generate a new one, and the bill may be deleted.
 */
import type { Deps } from "../deps.ts";
import { changePayment } from "../../core/payment.ts";
import { getUnitBillEntry, updateUnitBill } from "../../db/bills.ts";
import { addFlag, putCharge, type StoredCharge } from "../../db/payments.ts";
import { type OpenpayClient, OpenpayError } from "./openpay_client.ts";

/** The stored status of a charge the processor no longer knows. */
export const UNKNOWN_CHARGE = "unknown";

/**
 * Whether `e` (the error of asking for `stored`) means the processor no longer knows it: a 404,
 * and the merchant's charges of its order id answered without it (so the credentials and the
 * address are right and the 404 is about this charge). Any other failure: not known to be gone.
 */
export async function processorForgot(
  client: OpenpayClient,
  stored: StoredCharge,
  e: unknown,
): Promise<boolean> {
  if (!(e instanceof OpenpayError) || e.kind !== "refused" || e.status !== 404) return false;
  try {
    const listed = await client.chargesOfOrder(stored.order_id);
    return !listed.some((c) => c.id === stored.id);
  } catch (again) {
    if (again instanceof OpenpayError) return false;
    throw again;
  }
}

/** Marks a charge the processor no longer knows (see the module's text); once. */
export async function forgetCharge(
  deps: Deps,
  stored: StoredCharge,
  event: string,
): Promise<void> {
  if (stored.status === UNKNOWN_CHARGE) return;
  const at = new Date(deps.now()).toISOString();
  await putCharge(deps.kv, { ...stored, status: UNKNOWN_CHARGE, updated_at: at });
  await addFlag(deps.kv, {
    at,
    reason: "charge_not_found",
    event_type: event,
    transaction_id: stored.id,
    bill_id: stored.bill_id,
    amount: stored.amount,
  });
  deps.log.log("warn", "payment processor no longer knows a charge", {
    charge: stored.id,
    bill: stored.bill_id,
  });
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await getUnitBillEntry(deps.kv, stored.bill_id);
    if (
      !entry || entry.value.payment_status !== "awaiting_spei_transfer" ||
      entry.value.openpay_charge_id !== stored.id
    ) return;
    const next = changePayment(entry.value, "reference_expired", {
      at,
      cause: "reference_unknown",
      by: null,
      note: event,
    });
    if (await updateUnitBill(deps.kv, entry, next)) return;
  }
}
