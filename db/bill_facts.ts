/**
 * The facts the finance figures need of every bill (core/finances.ts), read from the bill
 * families of bills.ts. Reading tens of thousands of whole bills takes a good part of a second,
 * so the facts are kept in memory per store and read again only when `["bills_revision"]`
 * (which every commit writing a bill increments, in the same commit) has moved: an answer
 * always reflects the bills as they are at the time of the request.
 */
import type { BillFacts, CustomerFact, UnitFact } from "../core/finances.ts";
import { periodOfBill } from "../core/bill.ts";
import { BILLS_REVISION, type StoredCustomerBill, type StoredUnitBill } from "./_bill_keys.ts";
import { listCustomerBills, listUnitBills } from "./bills.ts";

interface Cached {
  revision: bigint;
  facts: BillFacts;
}

const cache = new WeakMap<Deno.Kv, Cached>();

/** A unit bill's facts. */
export function unitFact(b: StoredUnitBill): UnitFact {
  return {
    station_id: b.station_id,
    zone_id: b.zone_id,
    period: periodOfBill(b),
    currency: b.currency,
    finalized: b.is_finalized,
    paid: b.payment_status === "paid",
    base_tariff: b.base_tariff,
    energy_cost: b.energy_cost,
    compensation_cost: b.compensation_cost,
    tax_cost: b.tax_cost,
    total_cost: b.total_cost,
  };
}

/** A customer bill's facts. */
export function customerFact(b: StoredCustomerBill): CustomerFact {
  return {
    station_id: b.station_id,
    zone_id: b.zone_id,
    period: periodOfBill(b),
    currency: b.currency,
    finalized: b.is_finalized,
    commission: b.commission_amount,
    fees: b.fee_amount,
    tax: b.tax_amount,
    total: b.total_amount,
    commission_rate: b.calculation_details?.commission_rate ?? 0,
    fee_per_unit: b.calculation_details?.fee_per_unit ?? 0,
    tax_rate: b.calculation_details?.tax_rate ?? 0,
  };
}

async function revisionOf(kv: Deno.Kv): Promise<bigint> {
  const v = (await kv.get<Deno.KvU64>(BILLS_REVISION)).value;
  return v ? v.value : 0n;
}

/** The facts of every bill as they are now (read again only when a bill was written). */
export async function readBillFacts(kv: Deno.Kv): Promise<BillFacts> {
  const revision = await revisionOf(kv);
  const hit = cache.get(kv);
  if (hit && hit.revision === revision) return hit.facts;
  // A write during the reading makes the next call read again (the revision moved).
  const units = (await listUnitBills(kv)).map(unitFact);
  const customers = (await listCustomerBills(kv)).map(customerFact);
  const facts = { units, customers };
  const after = await revisionOf(kv);
  if (after === revision) cache.set(kv, { revision, facts });
  return facts;
}

/** The facts of the bills of some stations, read from the store now (few stations). */
export async function readStationFacts(
  kv: Deno.Kv,
  stationIds: readonly number[],
): Promise<BillFacts> {
  const units: UnitFact[] = [];
  const customers: CustomerFact[] = [];
  for (const id of stationIds) {
    units.push(...(await listUnitBills(kv, id)).map(unitFact));
    customers.push(...(await listCustomerBills(kv, id)).map(customerFact));
  }
  return { units, customers };
}
