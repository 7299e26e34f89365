/**
 * Bills as the JSON API serves them (spec 001 sections 3 and 7; issue 9): every amount in
 * currency units with at most 2 decimals (`421.72`), converted here and nowhere else. Inside the
 * portal amounts stay integer cents (core/bill.ts). The amount the tenant owes now
 * (`amount_due`: total plus any late fee) is added.
 */
import { centsToUnits } from "../../core/money.ts";
import { type CustomerBill, type UnitBill } from "../../core/bill.ts";
import { amountDue } from "../../core/payment.ts";
import type { UnitBillDetails } from "../../core/bill_details.ts";

const u = centsToUnits;

/** A unit bill's calculation details with the tier costs and the fixed charge in units. */
function detailsJson(d: UnitBillDetails) {
  return {
    ...d,
    tiers: d.tiers.map((t) => ({ ...t, tier_cost: u(t.tier_cost) })),
    ...(d.fixed_charge === undefined ? {} : { fixed_charge: u(d.fixed_charge) }),
  };
}

/** A unit bill for the API. */
export function unitBillJson(b: UnitBill) {
  return {
    ...b,
    energy_cost: u(b.energy_cost),
    base_tariff: u(b.base_tariff),
    compensation_cost: u(b.compensation_cost),
    tax_cost: u(b.tax_cost),
    total_cost: u(b.total_cost),
    late_fee: u(b.late_fee),
    amount_due: u(amountDue(b)),
    calculation_details: detailsJson(b.calculation_details),
    payment_history: b.payment_history.map((h) =>
      h.late_fee === undefined ? h : { ...h, late_fee: u(h.late_fee) }
    ),
  };
}

/** A customer (station) bill for the API. */
export function customerBillJson(b: CustomerBill) {
  return {
    ...b,
    commission_amount: u(b.commission_amount),
    fee_amount: u(b.fee_amount),
    tax_amount: u(b.tax_amount),
    total_amount: u(b.total_amount),
    calculation_details: {
      ...b.calculation_details,
      commission_base: u(b.calculation_details.commission_base),
      fee_per_unit: u(b.calculation_details.fee_per_unit),
    },
  };
}
