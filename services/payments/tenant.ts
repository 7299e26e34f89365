/**
 * A tenant's payments (spec 001 sections 2, 3, 7): their unpaid bills as payment records, the
 * summary lists and totals of `/user/payments`, one record, and the SPEI details of a reference.
 * Amounts in cents; the routes turn them into currency units.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { periodOfBill, type UnitBill } from "../../core/bill.ts";
import { amountDue, type PaymentStatus } from "../../core/payment.ts";
import { tenantBillRows } from "../tenant/mod.ts";
import { openpayConfigured, speiReceiptUrl } from "./openpay_client.ts";
import { tenantBillEntry } from "./references.ts";
import { getDevice } from "../../db/devices.ts";

/** A bill as a payment (spec 001 section 3, "Tenant payment"), amounts in cents. */
export interface TenantPayment {
  id: number;
  unit_id: string;
  unit_name: string;
  station_name: string;
  billing_period: string;
  due_date: string | null;
  amount_due: number;
  currency: string;
  status: PaymentStatus;
  spei_clabe: string | null;
  spei_reference: string | null;
  spei_bank: string | null;
  spei_expiry_date: string | null;
  openpay_charge_id: string | null;
  /**
   * The SPEI receipt of the charge, when there is one: Openpay's dashboard, or in test mode
   * with another processor (the local sandbox) the portal's own path (`receiptPath`), which
   * the routes make absolute with the portal's public address.
   */
  pdf_receipt_url: string | null;
  /** The processor no longer knows the bill's last reference (`forgotten.ts`): a new one is due. */
  reference_unknown: boolean;
}

/** The summary of `/api/tenant-payments/summary`. */
export interface PaymentsSummary {
  pending_payments: TenantPayment[];
  overdue_payments: TenantPayment[];
  awaiting_spei_payments: TenantPayment[];
  expired_references: TenantPayment[];
  next_payment_due: { date: string; amount: number; id: number } | null;
  total_pending_amount: number;
  total_overdue_amount: number;
  total_awaiting_spei_amount: number;
  /** Count of pending plus awaiting-transfer bills. */
  pending_count: number;
  /** Whether payments run in test mode (sandbox). */
  test_mode: boolean;
}

/** The portal's own SPEI receipt of a bill (test mode without Openpay's dashboard). */
export function receiptPath(billId: number): string {
  return `/user/payment/receipt?bill=${billId}`;
}

/** Whether the payment processor is in test mode. */
export function paymentsTestMode(deps: Deps): boolean {
  return !deps.config.openpay.production || !openpayConfigured(deps.config.openpay);
}

function record(
  deps: Deps,
  b: UnitBill,
  names: { unit_name: string; station_name: string },
): TenantPayment {
  return {
    id: b.id,
    unit_id: b.unit_id,
    unit_name: names.unit_name,
    station_name: names.station_name,
    billing_period: periodOfBill(b),
    due_date: b.payment_due_date,
    amount_due: amountDue(b),
    currency: b.currency,
    status: b.payment_status,
    spei_clabe: b.spei_clabe,
    spei_reference: b.spei_reference,
    spei_bank: b.spei_bank,
    spei_expiry_date: b.spei_expiry_date,
    openpay_charge_id: b.openpay_charge_id,
    pdf_receipt_url: b.openpay_charge_id
      ? speiReceiptUrl(deps.config.openpay, b.openpay_charge_id) ?? receiptPath(b.id)
      : null,
    reference_unknown: b.payment_status === "reference_expired" &&
      b.payment_history.at(-1)?.cause === "reference_unknown",
  };
}

/** One of the caller's bills as a payment (not found for anyone else's). */
export async function tenantPayment(deps: Deps, user: User, id: number): Promise<TenantPayment> {
  const b = (await tenantBillEntry(deps, user, id)).value;
  const station = await getDevice(deps.kv, b.station_id);
  const unit = station?.config.station?.units.find((u) => u.id === b.unit_id);
  return record(deps, b, {
    unit_name: unit?.name || b.unit_id,
    station_name: station?.name ?? String(b.station_id),
  });
}

/** The caller's unpaid bills, grouped and totalled (spec 001 section 3). */
export async function paymentsSummary(deps: Deps, user: User): Promise<PaymentsSummary> {
  const rows = await tenantBillRows(deps, user, {});
  const open = rows.filter((r) => r.bill.payment_status !== "paid")
    .map((r) => record(deps, r.bill, r))
    .sort((a, b) => (a.due_date ?? "").localeCompare(b.due_date ?? "") || a.id - b.id);
  const of = (...s: PaymentStatus[]) => open.filter((p) => s.includes(p.status));
  const sum = (ps: TenantPayment[]) => ps.reduce((n, p) => n + p.amount_due, 0);
  const pending = of("pending", "failed");
  const awaiting = of("awaiting_spei_transfer");
  const next = open.find((p) => p.due_date !== null);
  return {
    pending_payments: pending,
    overdue_payments: of("overdue"),
    awaiting_spei_payments: awaiting,
    expired_references: of("reference_expired"),
    next_payment_due: next ? { date: next.due_date!, amount: next.amount_due, id: next.id } : null,
    total_pending_amount: sum([...pending, ...awaiting, ...of("reference_expired")]),
    total_overdue_amount: sum(of("overdue")),
    total_awaiting_spei_amount: sum(awaiting),
    pending_count: pending.length + awaiting.length,
    test_mode: paymentsTestMode(deps),
  };
}
