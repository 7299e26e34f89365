/**
 * Unit bills and customer (station) bills in Deno KV (spec 001 section 3).
 *
 * Key layout:
 * - `["unit_bills", stationId, period, unitId]` → {@link StoredUnitBill}: one bill per unit and
 *   period, so a second billing run finds the bill of the first and updates it
 * - `["unit_bill_ids", id]` → `[stationId, period, unitId]` (ids from the sequence `bills`)
 * - `["customer_bills", stationId, period]` → {@link StoredCustomerBill}: one per station and period
 * - `["customer_bill_ids", id]` → `[stationId, period]` (ids from the sequence `customer_bills`)
 *
 * `period` is the canonical `YYYY-MM` or `YYYY-MM-MM` text.
 *
 * Consistency: {@link writeStationBills} writes the unit bills of one station and its customer
 * bill in ONE atomic commit, checked against the versionstamps read before computing them, so a
 * killed run leaves no half-written station and a concurrent run makes the commit fail (the
 * caller reads again and retries). Finalized bills are never changed by it. A run may commit
 * several stations together ({@link writeStationsBills}: all of them or none). Ids come from
 * the sequences one station at a time, or in blocks for a whole run ({@link idBlocks}).
 */
/** Reserves `n` consecutive ids of `collection` (the `["seq", collection]` of db/kv.ts); the first. */
async function reserveIds(kv: Deno.Kv, collection: string, n: number): Promise<number> {
  const key = ["seq", collection];
  for (;;) {
    const cur = await kv.get<number>(key);
    const first = (cur.value ?? 0) + 1;
    if ((await kv.atomic().check(cur).set(key, first + n - 1).commit()).ok) return first;
  }
}

/** A unit bill as stored and served; amounts in integer cents. */
export interface StoredUnitBill {
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
  payment_status: "paid" | "pending" | "overdue" | "failed" | string;
  payment_due_date: string;
  payment_date: string | null;
  openpay_charge_id: string | null;
  is_finalized: boolean;
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
  created_at: string;
  updated_at: string;
}

/** A customer (station) bill as stored and served; amounts in integer cents. */
export interface StoredCustomerBill {
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
  calculation_details: {
    commission_base: number;
    commission_rate: number;
    unit_count: number;
    fee_per_unit: number;
    tax_rate: number;
  };
  customer_id: number | null;
  zone_id: number;
  created_at: string;
  updated_at: string;
}

/** A unit bill to write: everything but the id and the times. */
export type UnitBillDraft = Omit<StoredUnitBill, "id" | "created_at" | "updated_at">;
/** A customer bill to write: everything but the id and the times. */
export type CustomerBillDraft = Omit<StoredCustomerBill, "id" | "created_at" | "updated_at">;

const unitKey = (stationId: number, period: string, unitId: string): Deno.KvKey => [
  "unit_bills",
  stationId,
  period,
  unitId,
];
const customerKey = (stationId: number, period: string): Deno.KvKey => [
  "customer_bills",
  stationId,
  period,
];

/** The stored bills of one station and period, with versionstamps for the atomic write. */
export interface StationBills {
  units: Map<string, Deno.KvEntryMaybe<StoredUnitBill>>;
  customer: Deno.KvEntryMaybe<StoredCustomerBill>;
}

/** Reads the bills of the given units of a station for a period, and its customer bill. */
export async function readStationBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  unitIds: readonly string[],
): Promise<StationBills> {
  return (await readStationsBills(kv, period, [{ stationId, unitIds }]))[0];
}

/** {@link readStationBills} for several stations at once (10 keys per read). */
export async function readStationsBills(
  kv: Deno.Kv,
  period: string,
  stations: readonly { stationId: number; unitIds: readonly string[] }[],
): Promise<StationBills[]> {
  const keys = stations.flatMap(({ stationId, unitIds }) => [
    ...unitIds.map((u) => unitKey(stationId, period, u)),
    customerKey(stationId, period),
  ]);
  const entries: Deno.KvEntryMaybe<unknown>[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    entries.push(...await kv.getMany<unknown[]>(keys.slice(i, i + 10)));
  }
  let at = 0;
  return stations.map(({ unitIds }) => {
    const units = new Map<string, Deno.KvEntryMaybe<StoredUnitBill>>();
    for (const u of unitIds) units.set(u, entries[at++] as Deno.KvEntryMaybe<StoredUnitBill>);
    return { units, customer: entries[at++] as Deno.KvEntryMaybe<StoredCustomerBill> };
  });
}

/** Hands out `n` consecutive ids of a collection (`bills`, `customer_bills`); the first. */
export type IdSource = (collection: string, n: number) => Promise<number>;

/**
 * An {@link IdSource} that reserves ids `size` at a time, for a run that writes many bills:
 * one sequence write per block instead of one per station. Ids of a block left unused when
 * the run ends are never handed out (ids have gaps, as after a failed commit).
 */
export function idBlocks(kv: Deno.Kv, size = 500): IdSource {
  const blocks = new Map<string, { next: number; end: number }>();
  const pending = new Map<string, Promise<void>>();
  const take = async (collection: string, n: number): Promise<number> => {
    for (;;) {
      const b = blocks.get(collection);
      if (b && b.next + n <= b.end) {
        b.next += n;
        return b.next - n;
      }
      let refill = pending.get(collection);
      if (!refill) {
        const count = Math.max(size, n);
        refill = reserveIds(kv, collection, count).then((first) => {
          blocks.set(collection, { next: first, end: first + count });
        }).finally(() => pending.delete(collection));
        pending.set(collection, refill);
      }
      await refill;
    }
  };
  return take;
}

/** One unit bill of a station write and what was read before computing it. */
export interface UnitWrite {
  draft: UnitBillDraft;
  prev: Deno.KvEntryMaybe<StoredUnitBill>;
}

/** The outcome of {@link writeStationBills}. */
export type StationWriteResult =
  | { ok: false; reason: "conflict" }
  | {
    ok: true;
    /** Unit bills created, updated and left alone (finalized). */
    created: StoredUnitBill[];
    updated: StoredUnitBill[];
    skipped: StoredUnitBill[];
    customer: { bill: StoredCustomerBill; outcome: "created" | "updated" | "skipped" } | null;
  };

/** What one station writes: its unit bills and customer bill, with what was read before. */
export interface StationWrite {
  stationId: number;
  units: readonly UnitWrite[];
  customer: { draft: CustomerBillDraft; prev: Deno.KvEntryMaybe<StoredCustomerBill> } | null;
}

/** What a station write did. */
export type StationWritten = Extract<StationWriteResult, { ok: true }>;

/**
 * Writes a station's unit bills and customer bill for a period in one atomic commit. A bill
 * whose previous version is finalized is left alone; a draft keeps its id, created_at and
 * payment fields. Answers `conflict` when something changed since `prev` was read.
 */
export async function writeStationBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  units: readonly UnitWrite[],
  customer: StationWrite["customer"],
  now: number,
  ids: IdSource = (collection, n) => reserveIds(kv, collection, n),
): Promise<StationWriteResult> {
  const res = await writeStationsBills(kv, period, [{ stationId, units, customer }], now, ids);
  return res === null ? { ok: false, reason: "conflict" } : res[0];
}

/**
 * {@link writeStationBills} for several stations in ONE atomic commit (all or none): null when
 * something changed since it was read. The caller keeps the commit within Deno KV's limits
 * (checks: one per bill).
 */
export async function writeStationsBills(
  kv: Deno.Kv,
  period: string,
  stations: readonly StationWrite[],
  now: number,
  ids: IdSource = (collection, n) => reserveIds(kv, collection, n),
): Promise<StationWritten[] | null> {
  const at = new Date(now).toISOString();
  const op = kv.atomic();
  const out: StationWritten[] = [];
  for (const s of stations) out.push(await stage(op, period, s, at, ids));
  const res = await op.commit();
  return res.ok ? out : null;
}

async function stage(
  op: Deno.AtomicOperation,
  period: string,
  { stationId, units, customer }: StationWrite,
  at: string,
  ids: IdSource,
): Promise<StationWritten> {
  const created: StoredUnitBill[] = [];
  const updated: StoredUnitBill[] = [];
  const skipped: StoredUnitBill[] = [];
  const fresh = units.filter((u) => u.prev.value === null).length;
  let nextBillId = fresh > 0 ? await ids("bills", fresh) : 0;
  for (const { draft, prev } of units) {
    const key = unitKey(stationId, period, draft.unit_id);
    op.check({ key, versionstamp: prev.versionstamp });
    const old = prev.value;
    if (old?.is_finalized) {
      skipped.push(old);
      continue;
    }
    if (old) {
      const bill: StoredUnitBill = {
        ...draft,
        id: old.id,
        payment_status: old.payment_status,
        payment_date: old.payment_date,
        openpay_charge_id: old.openpay_charge_id,
        created_at: old.created_at,
        updated_at: at,
      };
      op.set(key, bill);
      updated.push(bill);
    } else {
      const id = nextBillId++;
      const bill: StoredUnitBill = { ...draft, id, created_at: at, updated_at: at };
      op.set(key, bill);
      op.set(["unit_bill_ids", id], [stationId, period, draft.unit_id]);
      created.push(bill);
    }
  }
  let cust: StationWritten["customer"] = null;
  if (customer) {
    const key = customerKey(stationId, period);
    op.check({ key, versionstamp: customer.prev.versionstamp });
    const old = customer.prev.value;
    if (old?.is_finalized) {
      cust = { bill: old, outcome: "skipped" };
    } else if (old) {
      const bill = { ...customer.draft, id: old.id, created_at: old.created_at, updated_at: at };
      op.set(key, bill);
      cust = { bill, outcome: "updated" };
    } else {
      const id = await ids("customer_bills", 1);
      const bill = { ...customer.draft, id, created_at: at, updated_at: at };
      op.set(key, bill);
      op.set(["customer_bill_ids", id], [stationId, period]);
      cust = { bill, outcome: "created" };
    }
  }
  return { ok: true, created, updated, skipped, customer: cust };
}

/** A unit's bill of a period, or null. */
export async function getUnitBillOf(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  unitId: string,
): Promise<StoredUnitBill | null> {
  return (await kv.get<StoredUnitBill>(unitKey(stationId, period, unitId))).value;
}

/** A unit's bills of several periods (null where it has none), in the order asked. */
export async function getUnitBillsOf(
  kv: Deno.Kv,
  stationId: number,
  periods: readonly string[],
  unitId: string,
): Promise<(StoredUnitBill | null)[]> {
  const out: (StoredUnitBill | null)[] = [];
  for (let i = 0; i < periods.length; i += 10) {
    const entries = await kv.getMany<StoredUnitBill[]>(
      periods.slice(i, i + 10).map((p) => unitKey(stationId, p, unitId)),
    );
    for (const e of entries) out.push(e.value);
  }
  return out;
}

/** Unit bills, optionally of one station (every period), oldest key first. */
export async function listUnitBills(kv: Deno.Kv, stationId?: number): Promise<StoredUnitBill[]> {
  const out: StoredUnitBill[] = [];
  const prefix = stationId === undefined ? ["unit_bills"] : ["unit_bills", stationId];
  for await (const e of kv.list<StoredUnitBill>({ prefix })) out.push(e.value);
  return out;
}

/** Customer bills, optionally of one station, oldest key first. */
export async function listCustomerBills(
  kv: Deno.Kv,
  stationId?: number,
): Promise<StoredCustomerBill[]> {
  const out: StoredCustomerBill[] = [];
  const prefix = stationId === undefined ? ["customer_bills"] : ["customer_bills", stationId];
  for await (const e of kv.list<StoredCustomerBill>({ prefix })) out.push(e.value);
  return out;
}

/** The outcome of a delete. */
export type DeleteResult = "deleted" | "not_found" | "finalized";

/** Deletes a draft unit bill by id; finalized bills stay. */
export async function deleteUnitBill(kv: Deno.Kv, id: number): Promise<DeleteResult> {
  const idx = await kv.get<[number, string, string]>(["unit_bill_ids", id]);
  if (!idx.value) return "not_found";
  const key = unitKey(...idx.value);
  const entry = await kv.get<StoredUnitBill>(key);
  if (!entry.value || entry.value.id !== id) return "not_found";
  if (entry.value.is_finalized) return "finalized";
  const res = await kv.atomic().check(entry).check(idx).delete(key).delete(idx.key).commit();
  return res.ok ? "deleted" : deleteUnitBill(kv, id);
}

/** Deletes a draft customer bill by id; finalized bills stay. */
export async function deleteCustomerBill(kv: Deno.Kv, id: number): Promise<DeleteResult> {
  const idx = await kv.get<[number, string]>(["customer_bill_ids", id]);
  if (!idx.value) return "not_found";
  const key = customerKey(...idx.value);
  const entry = await kv.get<StoredCustomerBill>(key);
  if (!entry.value || entry.value.id !== id) return "not_found";
  if (entry.value.is_finalized) return "finalized";
  const res = await kv.atomic().check(entry).check(idx).delete(key).delete(idx.key).commit();
  return res.ok ? "deleted" : deleteCustomerBill(kv, id);
}

/** Marks a unit bill finalized (or not); false when it does not exist. */
export async function setUnitBillFinalized(
  kv: Deno.Kv,
  id: number,
  finalized: boolean,
): Promise<boolean> {
  const idx = await kv.get<[number, string, string]>(["unit_bill_ids", id]);
  if (!idx.value) return false;
  const entry = await kv.get<StoredUnitBill>(unitKey(...idx.value));
  if (!entry.value) return false;
  const res = await kv.atomic().check(entry).set(entry.key, {
    ...entry.value,
    is_finalized: finalized,
  }).commit();
  return res.ok;
}
