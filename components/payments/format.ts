/**
 * Rules of the payment pages' display (spec 001 section 9): the badge colour of each payment
 * state and the 24 h expiring-soon rule. Money and dates come from `core/format.ts`.
 */
import { PAYMENT_COLOURS, type PaymentStatus } from "../../core/payment.ts";

/** The spec's expiring-soon window of a reference. */
const EXPIRING_SOON_MS = 24 * 3_600_000;

/** The badge class of a payment state (spec 001 section 4 colours). */
export function paymentBadge(s: PaymentStatus): string {
  return `badge badge-${PAYMENT_COLOURS[s]}`;
}

/** Whether a reference expires within 24 h of `now`. */
export function expiringSoon(expiry: string | null, now: number): boolean {
  const ms = expiry ? Date.parse(expiry) : NaN;
  return !Number.isNaN(ms) && ms > now && ms - now <= EXPIRING_SOON_MS;
}
