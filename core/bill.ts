/**
 * The bill's rules in one place (spec 001 sections 3, 4 and 9; legal terms): the unit and
 * station bill entities (amounts in integer cents), the period of a bill, the payment states
 * and their allowed transitions, the due date, the late fee, who may see, pay or delete a bill,
 * the list and report status derivations, the station's payment status, and the builders that
 * turn a computed bill into a stored one. Pure: time is a parameter.
 *
 * A bill's life: a billing run on a period that has ended finalizes ("Saved"); a run on the
 * open period writes drafts that only the admin sees. Finalized bills with a total above 0 are
 * shown to tenants, notified and payable; a finalized bill with a total of 0 needs no payment
 * and is settled when it is finalized.
 */
import type { UnitBillResult } from "./tariff.ts";
import type { CustomerBillResult } from "./customer_bill.ts";
import { addBusinessDays, type DateParts, formatDate, type PeriodKind } from "./periods.ts";
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
  | "processor_event"
  | "due_date_passed"
  | "recorded_by_admin";

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

/** Business days a tenant has to pay a finalized bill (legal terms §5). */
export const DUE_BUSINESS_DAYS = 10;
/** The late payment fee of the legal terms, in MXN cents (50.00 MXN). */
export const LATE_FEE_CENTS = 5000;
/** The currency the late fee is set in. */
export const LATE_FEE_CURRENCY = "MXN";
/** Calendar days an SPEI reference stays valid (legal terms). */
export const SPEI_REFERENCE_DAYS = 5;

/** A unit bill as stored; amounts in integer cents. */
export interface UnitBill {
  id: number;
  unit_id: string;
  station_id: number;
  billing_month: string | null;
  billing_period: string | null;
  energy_consumption: number;
  energy_cost: number;
  base_tariff: number;
  compensation_cost: number;
  tax_cost: number;
  total_cost: number;
  currency: string;
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
  is_finalized: boolean;
  /** ISO time the bill was finalized, or null for a draft. */
  finalized_at: string | null;
  is_estimation: boolean;
  /** How an estimated energy was found (`method_2_historical_average`, `method_3_zone_average`). */
  estimation_method: string | null;
  recalculation_method: string | null;
  override_reason: string | null;
  calculation_details: unknown;
  zone_snapshot: unknown;
  author: string | null;
  created_by: string | null;
  /** The tenant of the unit when billed, and the sensor that measured it. */
  tenant_id: number | null;
  sensor_serial: string | null;
  zone_id: number;
  /** Every change of payment state, oldest first. */
  payment_history: PaymentChange[];
  created_at: string;
  updated_at: string;
}

/** A customer (station) bill as stored; amounts in integer cents. */
export interface CustomerBill {
  id: number;
  station_id: number;
  billing_month: string | null;
  billing_period: string | null;
  energy_consumption: number;
  commission_amount: number;
  fee_amount: number;
  tax_amount: number;
  total_amount: number;
  currency: string;
  is_finalized: boolean;
  calculation_details: CustomerBillResult["calculation_details"];
  customer_id: number | null;
  zone_id: number;
  created_at: string;
  updated_at: string;
}

/** A unit bill to write: everything but the id and the times. */
export type UnitBillDraft = Omit<UnitBill, "id" | "created_at" | "updated_at">;
/** A customer bill to write: everything but the id and the times. */
export type CustomerBillDraft = Omit<CustomerBill, "id" | "created_at" | "updated_at">;

/** The period text of a bill (`YYYY-MM` or `YYYY-MM-MM`). */
export function periodOfBill(b: { billing_month: string | null; billing_period: string | null }) {
  return b.billing_month ?? b.billing_period ?? "";
}

/** Whether a bill is monthly or bimonthly. */
export function kindOfBill(b: { billing_month: string | null }): PeriodKind {
  return b.billing_month !== null ? "monthly" : "bimonthly";
}

/**
 * The due date of a bill finalized on `finalizedOn` (its local date): 10 business days later,
 * weekends and Mexican federal holidays not counted (legal terms §5).
 */
export function dueDateAfter(finalizedOn: DateParts): string {
  return formatDate(addBusinessDays(finalizedOn, DUE_BUSINESS_DAYS, isBusinessDay));
}

/** What the tenant owes: the total plus any late fee (cents). */
export function amountDue(b: Pick<UnitBill, "total_cost" | "late_fee">): number {
  return b.total_cost + b.late_fee;
}

/** Whether tenants see the bill: finalized with a total above 0. */
export function visibleToTenant(b: Pick<UnitBill, "is_finalized" | "total_cost">): boolean {
  return b.is_finalized && b.total_cost > 0;
}

/** Whether the tenant may ask for an SPEI reference for the bill now. */
export function isPayable(b: Pick<UnitBill, "is_finalized" | "total_cost" | "payment_status">) {
  return visibleToTenant(b) &&
    PAYMENT_TRANSITIONS[b.payment_status].includes("awaiting_spei_transfer");
}

/** Whether the bill waits on an SPEI reference that has not expired at `now` (epoch ms). */
export function hasLiveReference(
  b: Pick<UnitBill, "payment_status" | "spei_expiry_date">,
  now: number,
): boolean {
  if (b.payment_status !== "awaiting_spei_transfer") return false;
  const expiry = b.spei_expiry_date === null ? NaN : Date.parse(b.spei_expiry_date);
  return Number.isNaN(expiry) || expiry > now;
}

/** Why a unit bill may not be deleted, or null when it may: paid, or a live SPEI reference. */
export function deleteBlocker(
  b: Pick<UnitBill, "payment_status" | "spei_expiry_date">,
  now: number,
): "paid" | "live_reference" | null {
  if (b.payment_status === "paid") return "paid";
  return hasLiveReference(b, now) ? "live_reference" : null;
}

/** Whether an unpaid finalized bill is past its due date on `today` (`YYYY-MM-DD`). */
export function isPastDue(
  b: Pick<UnitBill, "is_finalized" | "payment_status" | "payment_due_date">,
  today: string,
): boolean {
  return b.is_finalized && b.payment_due_date !== null && b.payment_due_date < today &&
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
export function changePayment(
  bill: UnitBill,
  to: PaymentStatus,
  change: Omit<PaymentChange, "from" | "to" | "late_fee">,
  extra: Partial<
    Pick<
      UnitBill,
      | "openpay_charge_id"
      | "spei_clabe"
      | "spei_reference"
      | "spei_bank"
      | "spei_expiry_date"
      | "payment_date"
    >
  > = {},
): UnitBill {
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

/** The status of a unit bill in the lists, with its badge colour. */
export interface ListStatus {
  key: "recalculated" | "partially_saved" | "saved" | "estimate" | "not_saved";
  colour: "purple" | "yellow" | "green" | "red" | "blue" | "grey";
}

/** The fields of a unit bill the status derivations read. */
export type StatusFields = Pick<
  UnitBill,
  "is_finalized" | "is_estimation" | "override_reason" | "recalculation_method" | "created_by"
>;

/**
 * The status of a unit bill in the lists (spec 001 section 4): finalized with an override
 * reason or a recalculation method is Recalculated; finalized with a creator is Partially
 * Saved; other finalized is Saved (red for an estimation, else green); a draft estimation is
 * Estimate (blue in the current period, else red); anything else Not Saved.
 */
export function listStatus(bill: StatusFields, isCurrentPeriod: boolean): ListStatus {
  if (bill.is_finalized) {
    if (bill.override_reason || bill.recalculation_method) {
      return { key: "recalculated", colour: "purple" };
    }
    if (bill.created_by) return { key: "partially_saved", colour: "yellow" };
    return { key: "saved", colour: bill.is_estimation ? "red" : "green" };
  }
  if (bill.is_estimation) return { key: "estimate", colour: isCurrentPeriod ? "blue" : "red" };
  return { key: "not_saved", colour: "grey" };
}

/** The status of a period row of the unit report. */
export interface ReportStatus {
  key: ListStatus["key"] | "partial_estimate" | "error" | "future";
  colour: ListStatus["colour"];
}

/**
 * The report status (spec 001 section 4): Future for a period not started; Recalculated for a
 * bill with an override reason or a recalculation method, or one updated more than 5 s after
 * it was created; otherwise as in the lists (also Not Saved for no bill).
 */
export function reportStatus(
  bill: (StatusFields & Pick<UnitBill, "created_at" | "updated_at">) | null,
  timing: { future: boolean; current: boolean },
): ReportStatus {
  if (timing.future) return { key: "future", colour: "grey" };
  if (!bill) return { key: "not_saved", colour: "grey" };
  const edited = Date.parse(bill.updated_at) - Date.parse(bill.created_at) > 5000;
  if (bill.override_reason || bill.recalculation_method || edited) {
    return { key: "recalculated", colour: "purple" };
  }
  return listStatus(bill, timing.current);
}

/** A station's payment status, from its finalized unit bills. */
export type StationPaymentStatus = "paid" | "due" | "overdue" | "other";

/**
 * A station's payment status (issue 9): `overdue` if any finalized unit bill is overdue, `due`
 * if any is unpaid, `paid` if all are paid, `other` when it has none.
 */
export function stationPaymentStatus(
  bills: readonly Pick<UnitBill, "is_finalized" | "payment_status">[],
): StationPaymentStatus {
  const final = bills.filter((b) => b.is_finalized);
  if (final.length === 0) return "other";
  if (final.some((b) => b.payment_status === "overdue")) return "overdue";
  if (final.some((b) => b.payment_status !== "paid")) return "due";
  return "paid";
}

/** What a unit bill is built from, beside the computed amounts. */
export interface UnitBillInput {
  unit_id: string;
  station_id: number;
  zone_id: number;
  period: { text: string; kind: PeriodKind };
  tenant_id: number | null;
  sensor_serial: string | null;
  zone_snapshot: unknown;
  author: string | null;
  /** The estimation method and level, or null when the energy was measured. */
  estimation: { method: string; level: number } | null;
  /** When and on which local date the bill is finalized; null for a draft. */
  finalize: { at: string; on: DateParts } | null;
}

/** The amounts and details of a stored unit bill from a computed one. */
export function billAmounts(computed: UnitBillResult) {
  return {
    energy_consumption: computed.energy_consumption,
    energy_cost: computed.energy_cost,
    base_tariff: computed.base_tariff,
    compensation_cost: computed.compensation_cost,
    tax_cost: computed.tax_cost,
    total_cost: computed.total_cost,
    currency: computed.currency,
    calculation_details: {
      pricing_mode: computed.pricing_mode,
      season: computed.season,
      winter_days: computed.winter_days,
      summer_days: computed.summer_days,
      tiers: computed.calculation_details,
    } as Record<string, unknown>,
  };
}

/** The fields a bill takes when it is finalized at `at` on local date `on`. */
export function finalization(
  totalCost: number,
  at: string,
  on: DateParts,
):
  & Pick<
    UnitBill,
    "is_finalized" | "finalized_at" | "payment_due_date" | "payment_status" | "payment_date"
  >
  & { change: PaymentChange } {
  const settled = totalCost === 0;
  return {
    is_finalized: true,
    finalized_at: at,
    payment_due_date: dueDateAfter(on),
    payment_status: settled ? "paid" : "pending",
    payment_date: settled ? formatDate(on) : null,
    change: {
      from: null,
      to: settled ? "paid" : "pending",
      at,
      cause: settled ? "nothing_due" : "finalized",
      by: null,
    },
  };
}

/** A unit bill draft (or a finalized bill) from a computed bill. */
export function buildUnitBill(input: UnitBillInput, computed: UnitBillResult): UnitBillDraft {
  const monthly = input.period.kind === "monthly";
  const amounts = billAmounts(computed);
  if (input.estimation) amounts.calculation_details.estimation = input.estimation;
  const base: UnitBillDraft = {
    unit_id: input.unit_id,
    station_id: input.station_id,
    billing_month: monthly ? input.period.text : null,
    billing_period: monthly ? null : input.period.text,
    ...amounts,
    payment_status: "pending",
    payment_due_date: null,
    payment_date: null,
    late_fee: 0,
    openpay_charge_id: null,
    spei_clabe: null,
    spei_reference: null,
    spei_bank: null,
    spei_expiry_date: null,
    is_finalized: false,
    finalized_at: null,
    is_estimation: input.estimation !== null,
    estimation_method: input.estimation?.method ?? null,
    recalculation_method: null,
    override_reason: null,
    zone_snapshot: input.zone_snapshot,
    author: input.author,
    created_by: null,
    tenant_id: input.tenant_id,
    sensor_serial: input.sensor_serial,
    zone_id: input.zone_id,
    payment_history: [],
  };
  if (!input.finalize) return base;
  const { change, ...fin } = finalization(
    computed.total_cost,
    input.finalize.at,
    input.finalize.on,
  );
  return { ...base, ...fin, payment_history: [change] };
}

/** A station bill from the computed customer bill of its unit bills. */
export function buildCustomerBill(
  input: {
    station_id: number;
    period: { text: string; kind: PeriodKind };
    customer_id: number | null;
    zone_id: number;
    finalized: boolean;
  },
  cb: CustomerBillResult,
): CustomerBillDraft {
  const monthly = input.period.kind === "monthly";
  return {
    station_id: input.station_id,
    billing_month: monthly ? input.period.text : null,
    billing_period: monthly ? null : input.period.text,
    ...customerAmounts(cb),
    is_finalized: input.finalized,
    customer_id: input.customer_id,
    zone_id: input.zone_id,
  };
}

/** The amounts and details of a stored station bill from a computed one. */
function customerAmounts(cb: CustomerBillResult) {
  return {
    energy_consumption: Math.round(cb.energy_consumption * 1000) / 1000,
    commission_amount: cb.commission_amount,
    fee_amount: cb.fee_amount,
    tax_amount: cb.tax_amount,
    total_amount: cb.total_amount,
    currency: cb.currency,
    calculation_details: cb.calculation_details,
  };
}

/** The station bill's amounts recomputed, keeping its identity and finalized flag. */
export function restatedCustomerBill(
  old: CustomerBill,
  cb: CustomerBillResult,
  at: string,
): CustomerBill {
  return { ...old, ...customerAmounts(cb), updated_at: at };
}
