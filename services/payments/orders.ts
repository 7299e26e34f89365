/**
 * Order ids of a bill's SPEI charges (`bill-{id}-{attempt}`, unique per bill and attempt, as
 * Openpay requires of `order_id`) and finding again a charge whose answer was lost: Openpay may
 * have made the charge even when its answer timed out or the process ended before keeping it,
 * and then refuses the same order id for good (409). Such a charge is looked up by its order
 * id (Openpay's list of charges filtered by `order_id`) and either adopted or passed over.
 */
import type { OpenpayCharge, OpenpayClient } from "./openpay_client.ts";

/** The order id of a bill's `attempt`-th reference. */
export function orderIdOf(billId: number, attempt: number): string {
  return `bill-${billId}-${attempt}`;
}

/** The bill id an order id names, or null. */
export function billIdOfOrder(orderId: string | null): number | null {
  const m = /^bill-(\d+)-\d+$/.exec(orderId ?? "");
  return m ? Number(m[1]) : null;
}

/** What a charge found by its order id is worth to the bill now. */
export type FoundCharge =
  /** None: the order id is free (Openpay never made that charge). */
  | { kind: "none" }
  /** In progress for the amount due and not past its due date: the reference to show. */
  | { kind: "live"; charge: OpenpayCharge }
  /** Already paid: the bill is settled with it. */
  | { kind: "completed"; charge: OpenpayCharge }
  /** Cancelled, failed, expired or for another amount: the order id is spent, use the next. */
  | { kind: "spent" };

/** Looks up the charge Openpay made with `orderId` (see the module's text). */
export async function findOrderCharge(
  client: OpenpayClient,
  orderId: string,
  amountCents: number,
  now: number,
): Promise<FoundCharge> {
  const [charge] = await client.chargesOfOrder(orderId);
  if (!charge) return { kind: "none" };
  if (charge.status === "completed") return { kind: "completed", charge };
  const due = charge.due_date === null ? NaN : Date.parse(charge.due_date);
  const live = charge.status === "in_progress" && !(due <= now) &&
    Math.round(charge.amount * 100) === amountCents && charge.payment_method !== null &&
    charge.payment_method.clabe !== "" && charge.payment_method.name !== "";
  return live ? { kind: "live", charge } : { kind: "spent" };
}
