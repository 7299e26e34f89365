/**
 * Test mode only: the admin's "simulate the tenant's transfer" for a bill waiting on a
 * reference, through the sandbox's `simulate-transfer` call (spoken with the portal's own
 * credentials); the sandbox then sends `charge.succeeded` as Openpay would. A charge the
 * sandbox no longer knows is marked so (`forgotten.ts`) and the admin told.
 */
import type { Deps } from "../deps.ts";
import { getUnitBill } from "../../db/bills.ts";
import { conflict, notFound, unavailable } from "../refusal.ts";
import { basicAuth, openpayClient, OpenpayError } from "./openpay_client.ts";
import { getCharge } from "../../db/payments.ts";
import { forgetCharge, processorForgot } from "./forgotten.ts";
import { PAYMENT_ERRORS } from "./references.ts";

/** Asks the sandbox to pay the bill's live charge. */
export async function simulateTransfer(deps: Deps, billId: number): Promise<void> {
  const s = deps.config.openpay;
  if (s.production || !s.merchantId || !s.privateKey) {
    throw conflict("payments.errors.not_test_mode");
  }
  const bill = await getUnitBill(deps.kv, billId);
  if (!bill) throw notFound(PAYMENT_ERRORS.notFound);
  if (bill.payment_status !== "awaiting_spei_transfer" || !bill.openpay_charge_id) {
    throw conflict(PAYMENT_ERRORS.notPayable);
  }
  let res: Response;
  try {
    res = await fetch(
      `${s.apiUrl}/v1/${s.merchantId}/charges/${bill.openpay_charge_id}/simulate-transfer`,
      {
        method: "POST",
        headers: { authorization: basicAuth(s.privateKey), "content-type": "application/json" },
        body: "{}",
        signal: AbortSignal.timeout(10_000),
      },
    );
  } catch (e) {
    throw unavailable(PAYMENT_ERRORS.processorDown, String(e));
  }
  await res.body?.cancel();
  if (res.status === 404) {
    // The sandbox no longer knows the charge: the admin's review lists it, the tenant may
    // generate a new reference.
    const stored = await getCharge(deps.kv, bill.openpay_charge_id);
    const client = openpayClient(s);
    const e = new OpenpayError("refused", 404, null, "the sandbox does not know the charge");
    if (stored && await processorForgot(client, stored, e)) {
      await forgetCharge(deps, stored, "simulate");
      throw conflict(PAYMENT_ERRORS.referenceUnknown);
    }
  }
  if (!res.ok) throw unavailable(PAYMENT_ERRORS.processorRefused, `sandbox answered ${res.status}`);
}
