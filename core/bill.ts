/**
 * The bill (spec 001 sections 3, 4 and 9; legal terms): the unit and station bill entities
 * (amounts in integer cents), the period of a bill and the builders that turn a computed bill
 * into a stored one (finalized or a draft). Its payment (states, transitions, due date, late
 * fee, who may pay or delete) is `payment.ts`; the list and report statuses and a station's
 * payment status are `bill_status.ts`. Pure: time is a parameter.
 *
 * A bill's life: a billing run on a period that has ended finalizes ("Saved"); a run on the
 * open period writes drafts that only the admin sees. Finalized bills with a total above 0 are
 * shown to tenants, notified and payable; a finalized bill with a total of 0 shows "nothing
 * due" and stays pending: only a payment makes a bill paid.
 */
import type { UnitBillFigures } from "./tariff.ts";
import {
  type BillEstimation,
  type PricedBill,
  type UnitBillDetails,
  unitBillDetails,
  type ZoneSnapshot,
} from "./bill_details.ts";
import type { CustomerBillResult } from "./customer_bill.ts";
import { type DateParts, type PeriodKind } from "./periods.ts";
import { type BillPayment, dueDateAfter, type PaymentChange } from "./payment.ts";

/** A unit bill as stored; amounts (its figures as computed) in integer cents. */
export interface UnitBill extends UnitBillFigures, BillPayment {
  id: number;
  unit_id: string;
  station_id: number;
  billing_month: string | null;
  billing_period: string | null;
  currency: string;
  is_finalized: boolean;
  /** ISO time the bill was finalized, or null for a draft. */
  finalized_at: string | null;
  is_estimation: boolean;
  /** How an estimated energy was found (`method_2_historical_average`, `method_3_zone_average`). */
  estimation_method: string | null;
  recalculation_method: string | null;
  override_reason: string | null;
  calculation_details: UnitBillDetails;
  zone_snapshot: ZoneSnapshot | null;
  author: string | null;
  created_by: string | null;
  /** The tenant of the unit when billed, and the sensor that measured it. */
  tenant_id: number | null;
  sensor_serial: string | null;
  zone_id: number;
  /**
   * The tenancy's part of the period the bill covers (ISO instants `[from, to)`), when the
   * unit changed hands in the period (issue 24); null for a bill of the whole period.
   */
  tenancy_from: string | null;
  tenancy_to: string | null;
  /**
   * The start (ISO) of the bill's part when it is not the part that starts the period, else
   * null: with the unit id, the bill's key among its unit's bills of the period
   * ({@link slotOf}).
   */
  part_key: string | null;
  /** Days of the bill's part without any reading of its meter, when there were such days. */
  missing_readings: MissingReadings | null;
  created_at: string;
  updated_at: string;
}

/** Days without readings of a bill's part: "no readings for `days` of `of` days". */
export interface MissingReadings {
  days: number;
  of: number;
}

/**
 * The key of a unit's bill of a part of a period among the unit's bills of that period: the
 * unit id for the part that starts the period (so a period that was not split keeps its one
 * bill where it always was), `unitId@<ISO start>` for a later part.
 */
export function billSlot(unitId: string, partFrom: number, periodFrom: number): string {
  return partFrom <= periodFrom ? unitId : `${unitId}@${new Date(partFrom).toISOString()}`;
}

/** The part key of a bill of the part starting at `partFrom` ({@link UnitBill.part_key}). */
export function partKey(partFrom: number, periodFrom: number): string | null {
  return partFrom <= periodFrom ? null : new Date(partFrom).toISOString();
}

/** A unit bill's key among its unit's bills of the period ({@link billSlot}). */
export function slotOf(b: Pick<UnitBill, "unit_id" | "part_key">): string {
  return b.part_key ? `${b.unit_id}@${b.part_key}` : b.unit_id;
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

/** What a unit bill is built from, beside the computed amounts. */
export interface UnitBillInput {
  unit_id: string;
  station_id: number;
  zone_id: number;
  period: { text: string; kind: PeriodKind };
  tenant_id: number | null;
  sensor_serial: string | null;
  zone_snapshot: ZoneSnapshot | null;
  author: string | null;
  /** The estimation method and level, or null when the energy was measured. */
  estimation: BillEstimation | null;
  /** When and on which local date the bill is finalized; null for a draft. */
  finalize: { at: string; on: DateParts } | null;
  /** The part of the period the bill covers, its key and its days without readings. */
  part?: { from: string; to: string; key: string | null } | null;
  missing_readings?: MissingReadings | null;
}

/** The amounts and details of a stored unit bill from a computed one. */
export function billAmounts(computed: PricedBill) {
  return {
    energy_consumption: computed.energy_consumption,
    energy_cost: computed.energy_cost,
    base_tariff: computed.base_tariff,
    compensation_cost: computed.compensation_cost,
    tax_cost: computed.tax_cost,
    total_cost: computed.total_cost,
    currency: computed.currency,
    calculation_details: unitBillDetails(computed),
  };
}

/**
 * The fields a bill takes when it is finalized at `at` on local date `on`: it is due 10
 * business days later and pending. A bill is paid only through a payment; one with nothing to
 * pay stays pending, shows "nothing due" ({@link nothingDue}), is never overdue and may still be
 * recalculated (a meter that sent nothing must not settle itself).
 */
export function finalization(
  at: string,
  on: DateParts,
):
  & Pick<
    UnitBill,
    "is_finalized" | "finalized_at" | "payment_due_date" | "payment_status" | "payment_date"
  >
  & { change: PaymentChange } {
  return {
    is_finalized: true,
    finalized_at: at,
    payment_due_date: dueDateAfter(on),
    payment_status: "pending",
    payment_date: null,
    change: { from: null, to: "pending", at, cause: "finalized", by: null },
  };
}

/** A unit bill draft (or a finalized bill) from a computed bill. */
export function buildUnitBill(input: UnitBillInput, computed: PricedBill): UnitBillDraft {
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
    tenancy_from: input.part?.from ?? null,
    tenancy_to: input.part?.to ?? null,
    part_key: input.part?.key ?? null,
    missing_readings: input.missing_readings ?? null,
  };
  if (!input.finalize) return base;
  const { change, ...fin } = finalization(input.finalize.at, input.finalize.on);
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
