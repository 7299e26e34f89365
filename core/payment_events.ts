/**
 * What the portal keeps of the payment processor's events (issue 12): each event with what came
 * of it, and the events a person must look at because they match no bill. Stored by
 * `db/payments.ts`.
 */

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
  reason: "unknown_charge" | "wrong_amount" | "wrong_order" | "duplicate_payment";
  event_type: string;
  transaction_id: string;
  bill_id: number | null;
  /** Cents the event named, when it named any. */
  amount: number | null;
}
