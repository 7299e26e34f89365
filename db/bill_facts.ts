/**
 * The finalized bills summed per station, period and currency (core/finances.ts
 * `summarize`), read from the bill families of bills.ts and kept in memory per store. Every
 * commit that writes a bill adds 1 to `["bills_revision"]` and to its station's
 * `["bills_station_revision", id]`, so a read costs one get while nothing changed; after a
 * change only the stations whose revision moved are read again. An answer always reflects
 * the bills as they are at the time of the request.
 */
import { type BillFacts, type PeriodSummary, summarize } from "../core/finances.ts";
import type { BillFactBase, CustomerFact, UnitFact } from "../core/finances.ts";
import { periodOfBill } from "../core/bill.ts";
import {
  BILLS_REVISION,
  STATION_REVISIONS,
  type StoredCustomerBill,
  type StoredUnitBill,
} from "./_bill_keys.ts";
import { listCustomerBills, listUnitBills } from "./bills.ts";

interface Cached {
  revision: bigint;
  stations: Map<number, { revision: bigint; rows: PeriodSummary[] }>;
  rows: PeriodSummary[];
}

const cache = new WeakMap<Deno.Kv, Cached>();

/** What the facts of either kind of bill say alike. */
function factBase(b: StoredUnitBill | StoredCustomerBill): BillFactBase {
  return {
    station_id: b.station_id,
    zone_id: b.zone_id,
    period: periodOfBill(b),
    currency: b.currency,
    finalized: b.is_finalized,
  };
}

/** A unit bill's facts. */
function unitFact(b: StoredUnitBill): UnitFact {
  return {
    ...factBase(b),
    paid: b.payment_status === "paid",
    base_tariff: b.base_tariff,
    energy_cost: b.energy_cost,
    compensation_cost: b.compensation_cost,
    tax_cost: b.tax_cost,
    total_cost: b.total_cost,
  };
}

/** A customer bill's facts. */
function customerFact(b: StoredCustomerBill): CustomerFact {
  return {
    ...factBase(b),
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

async function stationRevisions(kv: Deno.Kv): Promise<Map<number, bigint>> {
  const out = new Map<number, bigint>();
  const list = kv.list<Deno.KvU64>({ prefix: STATION_REVISIONS }, { batchSize: 1000 });
  for await (const e of list) out.set(e.key[1] as number, e.value.value);
  return out;
}

/** Sums per station of every bill, read all at once (the first read of a process). */
async function readAll(kv: Deno.Kv): Promise<Map<number, PeriodSummary[]>> {
  const byStation = new Map<number, { units: UnitFact[]; customers: CustomerFact[] }>();
  const of = (id: number) => {
    let s = byStation.get(id);
    if (!s) byStation.set(id, s = { units: [], customers: [] });
    return s;
  };
  for (const b of await listUnitBills(kv)) of(b.station_id).units.push(unitFact(b));
  for (const b of await listCustomerBills(kv)) of(b.station_id).customers.push(customerFact(b));
  return new Map([...byStation].map(([id, f]) => [id, summarize(f)]));
}

/**
 * The finalized bills of every station summed per station, period and currency, as they are
 * now (read again only for the stations whose bills were written since the last call).
 */
export async function readBillSummaries(kv: Deno.Kv): Promise<PeriodSummary[]> {
  const revision = await revisionOf(kv);
  const hit = cache.get(kv);
  if (hit && hit.revision === revision) return hit.rows;
  // Revisions are read before the bills: a write meanwhile shows up at the next call.
  const revisions = await stationRevisions(kv);
  const stations = new Map<number, { revision: bigint; rows: PeriodSummary[] }>();
  if (!hit) {
    for (const [id, rows] of await readAll(kv)) {
      stations.set(id, { revision: revisions.get(id) ?? 0n, rows });
    }
  } else {
    for (const [id, s] of hit.stations) {
      if ((revisions.get(id) ?? 0n) === s.revision) stations.set(id, s);
    }
    for (const [id, rev] of revisions) {
      if (hit.stations.get(id)?.revision === rev) continue;
      const rows = summarize(await readStationFacts(kv, [id]));
      stations.set(id, { revision: rev, rows });
    }
  }
  const rows = [...stations.values()].flatMap((s) => s.rows);
  cache.set(kv, { revision, stations, rows });
  return rows;
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
