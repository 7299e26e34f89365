/**
 * The station (customer) bill from its unit bills (spec 001 sections 1 and 3): commission as a
 * percentage of energy plus compensation cost, a fixed fee per unit per period, tax on
 * commission plus fees. Provider profit is commission plus fees; customer profit is tenant
 * payments minus commission, fees and taxes. Every amount in integer cents.
 */
import type { Zone } from "./zone.ts";
import { percentOfCents, toCents } from "./tariff.ts";

/** What the station bill needs from each unit bill (amounts in cents). */
interface UnitBillAmounts {
  /** The unit billed: a unit whose period is split between tenancies counts once for the fee. */
  unit_id?: string;
  energy_consumption: number;
  energy_cost: number;
  compensation_cost: number;
  total_cost: number;
}

/** A computed customer (station) bill; amounts in integer cents. */
export interface CustomerBillResult {
  energy_consumption: number;
  commission_amount: number;
  fee_amount: number;
  tax_amount: number;
  total_amount: number;
  currency: Zone["currency"];
  /** What the provider keeps: commission plus fees. */
  provider_profit: number;
  /** Tenant payments minus commission, fees and taxes. */
  customer_profit: number;
  tenant_payments: number;
  calculation_details: {
    commission_base: number;
    commission_rate: number;
    unit_count: number;
    fee_per_unit: number;
    tax_rate: number;
  };
}

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be whole cents ≥ 0, saw ${value}`);
  }
}

/**
 * Computes the station bill from its unit bills. `tenantPayments` (cents) defaults to the sum of
 * the unit bills' total_cost (what the tenants owe). Throws RangeError for amounts that are not
 * whole non-negative cents.
 */
export function computeCustomerBill(
  zone: Zone,
  unitBills: readonly UnitBillAmounts[],
  tenantPayments?: number,
): CustomerBillResult {
  let commission_base = 0;
  let energy = 0;
  let owed = 0;
  unitBills.forEach((b, i) => {
    assertCents(b.energy_cost, `unit bill ${i} energy_cost`);
    assertCents(b.compensation_cost, `unit bill ${i} compensation_cost`);
    assertCents(b.total_cost, `unit bill ${i} total_cost`);
    commission_base += b.energy_cost + b.compensation_cost;
    energy += b.energy_consumption;
    owed += b.total_cost;
  });
  const tenant_payments = tenantPayments ?? owed;
  assertCents(tenant_payments, "tenant payments");
  const fee_per_unit = toCents(zone.customer_fee);
  const commission_amount = percentOfCents(commission_base, zone.customer_commission);
  const units = new Set(unitBills.map((b, i) => b.unit_id ?? i)).size;
  const fee_amount = fee_per_unit * units;
  const tax_amount = percentOfCents(commission_amount + fee_amount, zone.customer_tax);
  const total_amount = commission_amount + fee_amount + tax_amount;
  return {
    energy_consumption: energy,
    commission_amount,
    fee_amount,
    tax_amount,
    total_amount,
    currency: zone.currency,
    provider_profit: commission_amount + fee_amount,
    customer_profit: tenant_payments - total_amount,
    tenant_payments,
    calculation_details: {
      commission_base,
      commission_rate: zone.customer_commission,
      unit_count: units,
      fee_per_unit,
      tax_rate: zone.customer_tax,
    },
  };
}
