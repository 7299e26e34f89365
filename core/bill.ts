/**
 * The bill's rules (spec 001 sections 3, 4 and 9; legal terms), the surface of three modules:
 * here the unit and station bill entities (amounts in integer cents), the period of a bill and
 * the builders that turn a computed bill into a stored one (finalized or a draft);
 * `payment.ts` the payment states, transitions, due date, late fee and who may pay or delete;
 * `bill_status.ts` the list and report statuses and a station's payment status. Pure: time is
 * a parameter.
 *
 * A bill's life: a billing run on a period that has ended finalizes ("Saved"); a run on the
 * open period writes drafts that only the admin sees. Finalized bills with a total above 0 are
 * shown to tenants, notified and payable; a finalized bill with a total of 0 needs no payment
 * and is settled when it is finalized.
 */
import type { UnitBillFigures, UnitBillResult } from "./tariff.ts";
import type { HighConsumption } from "./dac.ts";
import type { CustomerBillResult } from "./customer_bill.ts";
import { type DateParts, formatDate, type PeriodKind } from "./periods.ts";
import { dueDateAfter, type PaymentChange, type PaymentStatus } from "./payment.ts";

export * from "./payment.ts";
export * from "./bill_status.ts";

/** A unit bill as stored; amounts (its figures as computed) in integer cents. */
export interface UnitBill extends UnitBillFigures {
  id: number;
  unit_id: string;
  station_id: number;
  billing_month: string | null;
  billing_period: string | null;
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

/** A computed bill with what billing adds: its price versions and its high-consumption fact. */
export type PricedBill = UnitBillResult & {
  parts?: { applies_from: string | null; days: number }[];
  high_consumption?: HighConsumption | null;
};

/** The amounts and details of a stored unit bill from a computed one. */
export function billAmounts(computed: PricedBill) {
  const extra: Record<string, unknown> = {};
  // The additions of real tariffs and a split by price versions, said only when they apply.
  if ((computed.billed_kwh ?? 0) > computed.energy_consumption) {
    extra.minimum_kwh = computed.minimum_kwh;
    extra.billed_kwh = computed.billed_kwh;
  }
  if ((computed.fixed_charge ?? 0) > 0) extra.fixed_charge = computed.fixed_charge;
  if (computed.blocks_doubled) extra.blocks_doubled = true;
  if (computed.parts && computed.parts.length > 1) extra.price_versions = computed.parts;
  if (computed.high_consumption) extra.high_consumption = computed.high_consumption;
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
      ...extra,
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
