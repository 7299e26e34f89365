/**
 * What the portal keeps of the payment processor's events (issue 12): each event with what came
 * of it, and the events a person must look at because they match no bill. Stored by
 * `db/payments.ts`.
 */
import { z } from "zod";

/**
 * An Openpay webhook body as the route validates it: the `verification` event with its code, or
 * an event on a transaction with its id (other fields are not read).
 */
export const webhookBodySchema = z.union([
  z.object({ type: z.literal("verification"), verification_code: z.string() }),
  z.object({
    type: z.string().refine((t) => t !== "verification"),
    transaction: z.object({ id: z.string().min(1) }),
  }),
]);

/** A validated webhook body. */
export type WebhookBody = z.output<typeof webhookBodySchema>;

/** A processor event as received. */
export interface StoredEvent {
  type: string;
  transaction_id: string;
  received_at: string;
  /** What came of it: handled, ignored, flagged, or failed (to be retried). */
  outcome: "received" | "handled" | "ignored" | "flagged" | "failed";
  bill_id: number | null;
}

/** An event that does not match a bill. */
export interface PaymentFlag {
  id: string;
  at: string;
  reason:
    | "unknown_charge"
    | "wrong_amount"
    | "wrong_order"
    | "duplicate_payment"
    /** The processor answers it no longer knows a stored reference's charge. */
    | "charge_not_found";
  event_type: string;
  transaction_id: string;
  bill_id: number | null;
  /** Cents the event named, when it named any. */
  amount: number | null;
}
