/**
 * A unit bill's payment (issue 9; spec 001 sections 4 and 9, legal terms): the payment states,
 * their allowed transitions and badge colours, the due date after Mexican federal holidays,
 * the late fee, who may see, pay or delete a bill, and the one function that changes a payment
 * state keeping the change with its cause. Pure: time is a parameter.
 */
import { addBusinessDays, type DateParts, formatDate } from "./periods.ts";
import { isBusinessDay } from "./holidays.ts";

/** The payment states of a unit bill. */
export const PAYMENT_STATUSES = [
  "pending",
  "awaiting_spei_transfer",
  "reference_expired",
  "overdue",
  "paid",
  "failed",
] as const;
/** A unit bill's payment state. */
export type PaymentStatus = typeof PAYMENT_STATUSES[number];

/** Whether a value is one of the {@link PAYMENT_STATUSES}. */
export function isPaymentStatus(v: unknown): v is PaymentStatus {
  return (PAYMENT_STATUSES as readonly unknown[]).includes(v);
}

/** The badge colour of each payment state (spec 001 section 4; others yellow). */
export const PAYMENT_COLOURS: Readonly<Record<PaymentStatus, string>> = {
  paid: "green",
  failed: "red",
  overdue: "red",
  awaiting_spei_transfer: "blue",
  reference_expired: "orange",
  pending: "yellow",
};

/**
 * The allowed changes of payment state: `pending → awaiting_spei_transfer → paid`,
 * `awaiting_spei_transfer → reference_expired → awaiting_spei_transfer`, `pending |
 * reference_expired → overdue` after the due date, `failed` from a reference; an overdue or
 * failed bill may get a new reference; a payment recorded by an admin settles any unpaid bill.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ["awaiting_spei_transfer", "overdue", "paid"],
  awaiting_spei_transfer: ["paid", "reference_expired", "failed"],
  reference_expired: ["awaiting_spei_transfer", "overdue", "paid"],
  overdue: ["awaiting_spei_transfer", "paid"],
  failed: ["awaiting_spei_transfer", "overdue", "paid"],
  paid: [],
};

/** Why a payment state changed. */
export type PaymentCause =
  | "finalized"
  | "nothing_due"
  | "reference_created"
  | "reference_expired"
  /** The processor no longer knows the reference's charge. */
  | "reference_unknown"
  | "processor_event"
  | "due_date_passed"
  | "recorded_by_admin"
  | "recalculated";

/** One change of a bill's payment state, kept on the bill. */
export interface PaymentChange {
  from: PaymentStatus | null;
  to: PaymentStatus;
  /** ISO time of the change. */
  at: string;
  cause: PaymentCause;
  /** Who made it (an admin's e-mail), or null for the portal itself. */
  by: string | null;
  /** A payment recorded outside the processor: how, its date and reference, a note. */
  method?: "cash" | "transfer" | "spei" | null;
  reference?: string | null;
  note?: string | null;
  /** The late fee added with this change, in cents. */
  late_fee?: number;
}

/** The payment part of a unit bill (`core/bill.ts`'s `UnitBill`), amounts in cents. */
export interface BillPayment {
  payment_status: PaymentStatus;
  /** `YYYY-MM-DD`, set when the bill is finalized; null for a draft. */
  payment_due_date: string | null;
  payment_date: string | null;
  /** Late fee added to the amount due when the bill became overdue (cents; not in total_cost). */
  late_fee: number;
  openpay_charge_id: string | null;
  spei_clabe: string | null;
  spei_reference: string | null;
  spei_bank: string | null;
  spei_expiry_date: string | null;
  /** Every change of payment state, oldest first. */
  payment_history: PaymentChange[];
}

/** A bill as the payment rules read it: its payment part and what it asks for. */
interface PayableBill extends BillPayment {
  /** The bill's total (cents). */
  total_cost: number;
  currency: string;
  is_finalized: boolean;
  updated_at: string;
}

/** Business days a tenant has to pay a finalized bill (legal terms §5). */
const DUE_BUSINESS_DAYS = 10;
/** The late payment fee of the legal terms, in MXN cents (50.00 MXN). */
export const LATE_FEE_CENTS = 5000;
/** The currency the late fee is set in. */
const LATE_FEE_CURRENCY = "MXN";
/** Calendar days an SPEI reference stays valid (legal terms). */
export const SPEI_REFERENCE_DAYS = 5;

/**
 * The due date of a bill finalized on `finalizedOn` (its local date): 10 business days later,
 * weekends and Mexican federal holidays not counted (legal terms §5).
 */
export function dueDateAfter(finalizedOn: DateParts): string {
  return formatDate(addBusinessDays(finalizedOn, DUE_BUSINESS_DAYS, isBusinessDay));
}

/** What the tenant owes: the total plus any late fee (cents). */
export function amountDue(b: Pick<PayableBill, "total_cost" | "late_fee">): number {
  return b.total_cost + b.late_fee;
}

/**
 * Whether a finalized bill asks for nothing: a total of 0 and no late fee. It stays pending
 * (only a payment settles a bill), shows "nothing due", is never overdue and may be
 * recalculated.
 */
export function nothingDue(b: Pick<PayableBill, "is_finalized" | "total_cost" | "late_fee">) {
  return b.is_finalized && b.total_cost === 0 && b.late_fee === 0;
}

/** Whether tenants see the bill: finalized with a total above 0. */
export function visibleToTenant(b: Pick<PayableBill, "is_finalized" | "total_cost">): boolean {
  return b.is_finalized && b.total_cost > 0;
}

/** Whether the tenant may ask for an SPEI reference for the bill now. */
export function isPayable(b: Pick<PayableBill, "is_finalized" | "total_cost" | "payment_status">) {
  return visibleToTenant(b) &&
    PAYMENT_TRANSITIONS[b.payment_status].includes("awaiting_spei_transfer");
}

/** Whether the bill waits on an SPEI reference that has not expired at `now` (epoch ms). */
export function hasLiveReference(
  b: Pick<PayableBill, "payment_status" | "spei_expiry_date">,
  now: number,
): boolean {
  if (b.payment_status !== "awaiting_spei_transfer") return false;
  const expiry = b.spei_expiry_date === null ? NaN : Date.parse(b.spei_expiry_date);
  return Number.isNaN(expiry) || expiry > now;
}

/**
 * Whether a payment settled the bill. Bills finalized with a total of 0 before "nothing due"
 * stayed pending were marked paid with the cause `nothing_due`: no payment, so not settled.
 */
export function settledByPayment(b: Pick<PayableBill, "payment_status" | "payment_history">) {
  return b.payment_status === "paid" && b.payment_history.at(-1)?.cause !== "nothing_due";
}

/**
 * A bill marked paid for "nothing due" (no payment, {@link settledByPayment} false) back to
 * pending, as a recalculation finds it: the change is kept with its cause.
 */
export function reopenNothingDue<B extends PayableBill>(bill: B, at: string, by: string | null): B {
  if (bill.payment_status !== "paid" || settledByPayment(bill)) return bill;
  return {
    ...bill,
    payment_status: "pending",
    payment_date: null,
    payment_history: [
      ...bill.payment_history,
      { from: "paid", to: "pending", at, cause: "recalculated", by },
    ],
  };
}

/**
 * Why a unit bill may not be deleted or recalculated, or null when it may: settled by a
 * payment, or a live SPEI reference.
 */
export function deleteBlocker(
  b: Pick<PayableBill, "payment_status" | "spei_expiry_date" | "payment_history">,
  now: number,
): "paid" | "live_reference" | null {
  if (settledByPayment(b)) return "paid";
  return hasLiveReference(b, now) ? "live_reference" : null;
}

/** Whether an unpaid finalized bill is past its due date on `today` (`YYYY-MM-DD`). */
export function isPastDue(
  b: Pick<
    PayableBill,
    "is_finalized" | "payment_status" | "payment_due_date" | "total_cost" | "late_fee"
  >,
  today: string,
): boolean {
  return b.is_finalized && !nothingDue(b) && b.payment_due_date !== null &&
    b.payment_due_date < today &&
    PAYMENT_TRANSITIONS[b.payment_status].includes("overdue");
}

/** A refused change of payment state. */
export class PaymentTransitionError extends RangeError {
  constructor(readonly from: PaymentStatus, readonly to: PaymentStatus) {
    super(`a bill cannot go from ${from} to ${to}`);
    this.name = "PaymentTransitionError";
  }
}

/**
 * The bill after a change of payment state, with the change kept in its history; paid sets the
 * payment date, overdue adds the late fee once (MXN bills only: the legal terms set it in MXN).
 * Throws {@link PaymentTransitionError} when the change is not allowed.
 */
export function changePayment<B extends PayableBill>(
  bill: B,
  to: PaymentStatus,
  change: Omit<PaymentChange, "from" | "to" | "late_fee">,
  extra: Partial<
    Pick<
      BillPayment,
      | "openpay_charge_id"
      | "spei_clabe"
      | "spei_reference"
      | "spei_bank"
      | "spei_expiry_date"
      | "payment_date"
    >
  > = {},
): B {
  const from = bill.payment_status;
  if (!PAYMENT_TRANSITIONS[from].includes(to)) throw new PaymentTransitionError(from, to);
  const fee = to === "overdue" && bill.late_fee === 0 && bill.currency === LATE_FEE_CURRENCY
    ? LATE_FEE_CENTS
    : 0;
  const entry: PaymentChange = { from, to, ...change, ...(fee ? { late_fee: fee } : {}) };
  return {
    ...bill,
    ...extra,
    payment_status: to,
    payment_date: to === "paid" ? extra.payment_date ?? change.at.slice(0, 10) : null,
    late_fee: bill.late_fee + fee,
    payment_history: [...bill.payment_history, entry],
    updated_at: change.at,
  };
}
