/** Bills for the tests, complete and written field by field once: drafts and stored bills. */
import type { CustomerBillDraft, UnitBillDraft } from "../core/bill.ts";
import type { StoredUnitBill } from "../db/bills.ts";

/** The period fields of `period`: "2025-01" is a billing month, "2025-01-02" a bimonthly period. */
export function billPeriod(
  period: string,
): { billing_month: string | null; billing_period: string | null } {
  const monthly = period.length === 7;
  return { billing_month: monthly ? period : null, billing_period: monthly ? null : period };
}

/**
 * A unit bill draft of unit_1 of station 1 in zone 1: 100 kWh, energy 150.00, base 40.00, tax
 * 30.40, total 220.40 MXN; pending, not finalized, no tenant, no period (give one with
 * {@link billPeriod}); `overrides` sets any field.
 */
export function unitBillDraft(overrides: Partial<UnitBillDraft> = {}): UnitBillDraft {
  return {
    unit_id: "unit_1",
    station_id: 1,
    billing_month: null,
    billing_period: null,
    energy_consumption: 100,
    energy_cost: 15000,
    base_tariff: 4000,
    compensation_cost: 0,
    tax_cost: 3040,
    total_cost: 22040,
    currency: "MXN",
    payment_status: "pending",
    payment_due_date: null,
    payment_date: null,
    openpay_charge_id: null,
    late_fee: 0,
    spei_clabe: null,
    spei_reference: null,
    spei_bank: null,
    spei_expiry_date: null,
    finalized_at: null,
    payment_history: [],
    is_finalized: false,
    is_estimation: false,
    estimation_method: null,
    recalculation_method: null,
    override_reason: null,
    calculation_details: { pricing_mode: "basic", season: null, tiers: [] },
    zone_snapshot: null,
    author: null,
    created_by: null,
    tenant_id: null,
    sensor_serial: null,
    zone_id: 1,
    tenancy_from: null,
    tenancy_to: null,
    part_key: null,
    missing_readings: null,
    ...overrides,
  };
}

/** A stored unit bill: {@link unitBillDraft} with id 1, created and updated 2026-02-01. */
export function storedUnitBill(overrides: Partial<StoredUnitBill> = {}): StoredUnitBill {
  return {
    ...unitBillDraft(overrides.unit_id ? { unit_id: overrides.unit_id } : {}),
    id: 1,
    created_at: "2026-02-01T00:00:00.000Z",
    updated_at: "2026-02-01T00:00:00.000Z",
    ...overrides,
  };
}

/**
 * A customer (station) bill draft of station 1 in zone 1: 100 kWh, commission 15.00 (10 % of
 * 150.00), no fee, tax 2.40 (16 %), total 17.40 MXN; not finalized, no customer, no period.
 */
export function customerBillDraft(overrides: Partial<CustomerBillDraft> = {}): CustomerBillDraft {
  return {
    station_id: 1,
    billing_month: null,
    billing_period: null,
    energy_consumption: 100,
    commission_amount: 1500,
    fee_amount: 0,
    tax_amount: 240,
    total_amount: 1740,
    currency: "MXN",
    is_finalized: false,
    calculation_details: {
      commission_base: 15000,
      commission_rate: 10,
      unit_count: 1,
      fee_per_unit: 0,
      tax_rate: 16,
    },
    customer_id: null,
    zone_id: 1,
    ...overrides,
  };
}

/** A new bill for `writeStationBills`: the draft, and no stored bill before it. */
export function fresh<T>(draft: T): { draft: T; prev: Deno.KvEntryMaybe<never> } {
  return { draft, prev: { key: [], value: null, versionstamp: null } };
}
