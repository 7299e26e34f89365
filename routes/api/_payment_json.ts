/**
 * Payments as the JSON API serves them (spec 001 section 3, "Tenant payment"): amounts in
 * currency units with at most 2 decimals, converted here.
 */
import { centsToUnits } from "../../core/money.ts";
import type { PaymentsSummary, TenantPayment } from "../../services/payments/mod.ts";

/**
 * The receipt's address for a client: the portal's own path made absolute with the portal's
 * origin (`PUBLIC_URL`'s, else the request's), never the processor's loopback address.
 */
function receiptUrl(p: TenantPayment, origin: string): string | null {
  return p.pdf_receipt_url && new URL(p.pdf_receipt_url, origin).href;
}

/** A payment record for the API (`origin`: the portal's, see {@link receiptUrl}). */
export function paymentJson(p: TenantPayment, origin: string) {
  return {
    ...p,
    amount_due: centsToUnits(p.amount_due),
    pdf_receipt_url: receiptUrl(p, origin),
  };
}

/** The SPEI details of a payment with a reference (the answer of `pay`). */
export function speiDetailsJson(p: TenantPayment, origin: string) {
  return {
    clabe: p.spei_clabe,
    reference: p.spei_reference,
    bank: p.spei_bank,
    amount: centsToUnits(p.amount_due),
    expiry_date: p.spei_expiry_date,
    pdf_receipt_url: receiptUrl(p, origin),
  };
}

/** The payments summary for the API. */
export function summaryJson(s: PaymentsSummary, origin: string) {
  const json = (p: TenantPayment) => paymentJson(p, origin);
  return {
    pending_payments: s.pending_payments.map(json),
    overdue_payments: s.overdue_payments.map(json),
    awaiting_spei_payments: s.awaiting_spei_payments.map(json),
    expired_references: s.expired_references.map(json),
    next_payment_due: s.next_payment_due && {
      ...s.next_payment_due,
      amount: centsToUnits(s.next_payment_due.amount),
    },
    total_pending_amount: centsToUnits(s.total_pending_amount),
    total_overdue_amount: centsToUnits(s.total_overdue_amount),
    total_awaiting_spei_amount: centsToUnits(s.total_awaiting_spei_amount),
    pending_count: s.pending_count,
    test_mode: s.test_mode,
  };
}
