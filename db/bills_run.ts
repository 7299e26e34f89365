/**
 * A billing run's writes (db/bills.ts's layout): a station's unit bills and its customer bill
 * in ONE atomic commit checked against what was read before computing them, several stations
 * in one commit, and bill ids reserved in blocks.
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import {
  batchOp,
  commitBatch,
  type CustomerBillDraft,
  customerKey,
  listUnitBillEntries,
  normalizeUnitBill,
  putCustomerBill,
  putUnitBill,
  removeUnitBill,
  type StoredCustomerBill,
  type StoredUnitBill,
  touchBills,
  type UnitBillDraft,
  unitKey,
} from "./_bill_keys.ts";
import { slotOf } from "../core/bill.ts";

/** Reserves `n` consecutive ids of `collection` (the `["seq", collection]` of db/kv.ts); the first. */
async function reserveIds(kv: Deno.Kv, collection: string, n: number): Promise<number> {
  const key = ["seq", collection];
  for (;;) {
    const cur = await kv.get<number>(key);
    const first = (cur.value ?? 0) + 1;
    if ((await kv.atomic().check(cur).set(key, first + n - 1).commit()).ok) return first;
  }
}

/** The stored bills of one station and period, with versionstamps for the atomic write. */
export interface StationBills {
  /** The bills at the slots asked for (core/bill.ts `slotOf`; a null value where none). */
  units: Map<string, Deno.KvEntryMaybe<StoredUnitBill>>;
  /** The station's other unit bills of the period (slots no longer billed). */
  others: Deno.KvEntry<StoredUnitBill>[];
  customer: Deno.KvEntryMaybe<StoredCustomerBill>;
}

/** Reads a station's unit bills of a period (by slot) and its customer bill. */
export async function readStationBills(
  kv: Deno.Kv,
  stationId: number,
  period: string,
  slots: readonly string[],
): Promise<StationBills> {
  return (await readStationsBills(kv, period, [{ stationId, slots }]))[0];
}

/**
 * {@link readStationBills} for several stations at once: each station's unit bills of the
 * period in one range read (so bills of slots no longer billed are found), the customer
 * bills 10 keys per read.
 */
export async function readStationsBills(
  kv: Deno.Kv,
  period: string,
  stations: readonly { stationId: number; slots: readonly string[] }[],
): Promise<StationBills[]> {
  const listed = await Promise.all(stations.map(async ({ stationId }) => {
    const entries = await listUnitBillEntries(kv, { prefix: ["unit_bills", stationId, period] });
    return new Map(entries.map((e) => [e.key[3] as string, e]));
  }));
  const customers: Deno.KvEntryMaybe<StoredCustomerBill>[] = [];
  const keys = stations.map(({ stationId }) => customerKey(stationId, period));
  for (let i = 0; i < keys.length; i += 10) {
    customers.push(...await kv.getMany<StoredCustomerBill[]>(keys.slice(i, i + 10)));
  }
  return stations.map(({ stationId, slots }, i) => {
    const found = listed[i];
    const units = new Map<string, Deno.KvEntryMaybe<StoredUnitBill>>();
    for (const slot of slots) {
      units.set(
        slot,
        found.get(slot) ??
          { key: unitKey(stationId, period, slot), value: null, versionstamp: null },
      );
    }
    const others = [...found.entries()].filter(([slot]) => !units.has(slot)).map(([, e]) => e);
    return { units, others, customer: customers[i] };
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
interface UnitWrite {
  draft: UnitBillDraft;
  prev: Deno.KvEntryMaybe<StoredUnitBill>;
}

/** The outcome of {@link writeStationBills}. */
type StationWriteResult =
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
  /** Draft unit bills of slots no longer billed (a split undone, a meter removed): removed. */
  remove?: readonly Deno.KvEntry<StoredUnitBill>[];
  customer: {
    draft: CustomerBillDraft;
    prev: Deno.KvEntryMaybe<StoredCustomerBill>;
    /** Write it even when it is finalized: one of its unit bills is created or changed. */
    restate?: boolean;
  } | null;
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
  remove: StationWrite["remove"] = [],
  audit?: AuditStamp,
): Promise<StationWriteResult> {
  const res = await writeStationsBills(
    kv,
    period,
    [{ stationId, units, customer, remove }],
    now,
    ids,
    audit,
  );
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
  audit?: AuditStamp,
): Promise<StationWritten[] | null> {
  const at = new Date(now).toISOString();
  const op = batchOp(kv);
  const out: StationWritten[] = [];
  for (const s of stations) out.push(await stage(op, period, s, at, ids));
  if (audit) {
    // A run is one entry per commit: the stations and bills this commit wrote.
    stageAudit(op, audit, null, {
      period,
      stations: stations.map((s) => s.stationId),
      unit_bills: stations.reduce((n, s) => n + s.units.length, 0),
    });
  }
  const res = await commitBatch(op);
  return res.ok ? out : null;
}

async function stage(
  op: Deno.AtomicOperation,
  period: string,
  { stationId, units, customer, remove }: StationWrite,
  at: string,
  ids: IdSource,
): Promise<StationWritten> {
  for (const e of remove ?? []) {
    op.check(e);
    if (!e.value.is_finalized) removeUnitBill(op, e.value);
  }
  const created: StoredUnitBill[] = [];
  const updated: StoredUnitBill[] = [];
  const skipped: StoredUnitBill[] = [];
  const fresh = units.filter((u) => u.prev.value === null).length;
  let nextBillId = fresh > 0 ? await ids("bills", fresh) : 0;
  for (const { draft, prev } of units) {
    op.check({ key: unitKey(stationId, period, slotOf(draft)), versionstamp: prev.versionstamp });
    const old = prev.value;
    if (old?.is_finalized) {
      skipped.push(old);
      continue;
    }
    if (old) {
      // A draft is replaced (drafts carry no payment); it keeps its id and creation time.
      const bill: StoredUnitBill = {
        ...draft,
        id: old.id,
        created_at: old.created_at,
        updated_at: at,
      };
      putUnitBill(op, normalizeUnitBill(old), bill);
      updated.push(bill);
    } else {
      const id = nextBillId++;
      const bill: StoredUnitBill = { ...draft, id, created_at: at, updated_at: at };
      putUnitBill(op, null, bill);
      created.push(bill);
    }
  }
  let cust: StationWritten["customer"] = null;
  if (customer) {
    touchBills(op, stationId);
    const key = customerKey(stationId, period);
    op.check({ key, versionstamp: customer.prev.versionstamp });
    const old = customer.prev.value;
    if (old?.is_finalized && !customer.restate) {
      cust = { bill: old, outcome: "skipped" };
    } else if (old) {
      const bill = {
        ...customer.draft,
        is_finalized: customer.draft.is_finalized || old.is_finalized,
        id: old.id,
        created_at: old.created_at,
        updated_at: at,
      };
      putCustomerBill(op, key, old, bill);
      cust = { bill, outcome: "updated" };
    } else {
      const id = await ids("customer_bills", 1);
      const bill = { ...customer.draft, id, created_at: at, updated_at: at };
      putCustomerBill(op, key, null, bill);
      cust = { bill, outcome: "created" };
    }
  }
  return { ok: true, created, updated, skipped, customer: cust };
}
