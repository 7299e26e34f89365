/**
 * CFDI invoices (issue 31) in Deno KV.
 *
 * Key layout:
 * - `["invoice_events", "unit", billId]` / `["invoice_events", "station", billId]` → at (ms):
 *   a bill became paid (a station bill finalized), staged in that bill's commit
 *   ({@link stageInvoiceEvent}); the worker turns it into an invoice or a global line, then
 *   deletes it
 * - `["invoices", key]` → {@link StoredInvoice}: `bill:<id>` (named), `station:<id>` (owner),
 *   `global:<YYYY-MM>:<currency>`; created only when absent, so an event seen twice (a repeated
 *   webhook, two processes) makes one
 * - `["invoices_due", key]` → null: an invoice to issue (pending, or claimed with a lease)
 * - `["invoices_by_bill", billId]` → key: the invoice a unit bill is in (named or global)
 * - `["invoices_by_owner_bill", customerBillId]` → key
 * - `["invoices_recent", created_at, key]` → null: for the admin's list
 * - `["invoice_global_lines", month, billId]` → {@link GlobalLine} and currency: a bill paid in
 *   `month` without fiscal data, waiting for the month's global invoice
 * - `["invoices_revision"]` → `Deno.KvU64`: 1 added by every commit that changes what a bill's
 *   invoice shows (an invoice, a global line) and by fiscal data's writes (db/fiscal.ts): what a
 *   tagged page shows of invoices is checked with one read (db/revisions.ts)
 */
import type { UnitBill } from "../core/bill.ts";
import type { GlobalLine } from "../core/cfdi.ts";
import { invoiceIssuedEvent } from "../core/messages.ts";
import { stageOutboxEvent } from "./outbox.ts";

/** The invoices' revision (see the key layout). */
export const INVOICES_REVISION: Deno.KvKey = ["invoices_revision"];

/** Where an invoice stands. */
export type InvoiceStatus =
  | "pending"
  | "issuing"
  | "valid"
  | "failed"
  | "pending_cancellation"
  | "canceled";

/** An invoice as the portal keeps it. */
export interface StoredInvoice {
  key: string;
  kind: "named" | "global" | "owner";
  /** The unit bill (named), the station bill (owner); null for a global invoice. */
  bill_id: number | null;
  /** The receiver's account (tenant or owner); null for a global invoice. */
  user_id: number | null;
  /** A global invoice's month and bills. */
  month: string | null;
  lines: (GlobalLine & { currency: string })[];
  currency: string;
  status: InvoiceStatus;
  idempotency_key: string;
  facturapi_id: string | null;
  uuid: string | null;
  /** Total in cents as Facturapi answered. */
  total: number | null;
  test: boolean;
  /** Facturapi's message of the last refusal or failure. */
  error: string | null;
  attempts: number;
  /** When it is next attempted (pending) or when a claim's lease ends (issuing). */
  next_at: number;
  cancellation: { motive: string; substitution: string | null; at: number } | null;
  created_at: number;
  updated_at: number;
}

const invoiceKey = (key: string) => ["invoices", key];
const dueKey = (key: string) => ["invoices_due", key];
const lineKey = (month: string, billId: number) => ["invoice_global_lines", month, billId];

/** Stages the invoice event of a unit bill's change (paid now, not before) in its commit. */
export function stageInvoiceEvent(op: Deno.AtomicOperation, old: UnitBill | null, bill: UnitBill) {
  if (bill.tenant_id === null || bill.payment_status !== "paid") return;
  if (old?.payment_status === "paid") return;
  op.set(["invoice_events", "unit", bill.id], Date.parse(bill.updated_at) || 0);
}

/** Stages the owner invoice event of a station bill finalized with an owner. */
export function stageStationInvoiceEvent(
  op: Deno.AtomicOperation,
  wasFinalized: boolean,
  bill: { id: number; is_finalized: boolean; customer_id: number | null },
) {
  if (wasFinalized || !bill.is_finalized || bill.customer_id === null) return;
  op.set(["invoice_events", "station", bill.id], 0);
}

/** An event: which bill, of which kind. */
export interface InvoiceEvent {
  kind: "unit" | "station";
  bill_id: number;
  entry: Deno.KvEntry<number>;
}

/** Events not yet handled, at most `limit`. */
export async function pendingInvoiceEvents(kv: Deno.Kv, limit: number): Promise<InvoiceEvent[]> {
  const out: InvoiceEvent[] = [];
  for await (const e of kv.list<number>({ prefix: ["invoice_events"] }, { limit })) {
    out.push({ kind: e.key[1] as "unit" | "station", bill_id: e.key[2] as number, entry: e });
  }
  return out;
}

/** Deletes an event that asks for nothing (checked: false when it changed). */
export async function dropInvoiceEvent(kv: Deno.Kv, e: InvoiceEvent): Promise<boolean> {
  return (await kv.atomic().check(e.entry).delete(e.entry.key).commit()).ok;
}

/** The bill index key of an invoice. */
function billIndex(inv: StoredInvoice): Deno.KvKey | null {
  if (inv.bill_id === null) return null;
  return inv.kind === "owner"
    ? ["invoices_by_owner_bill", inv.bill_id]
    : ["invoices_by_bill", inv.bill_id];
}

/**
 * Creates `inv` (pending, due now) and deletes the event that caused it, in one commit; an
 * invoice already there is left as it is (the event is still deleted). False when the event
 * changed meanwhile.
 */
export async function createInvoiceFor(
  kv: Deno.Kv,
  e: InvoiceEvent | null,
  inv: StoredInvoice,
): Promise<boolean> {
  const existing = await kv.get(invoiceKey(inv.key));
  const op = kv.atomic().sum(INVOICES_REVISION, 1n);
  if (e) op.check(e.entry).delete(e.entry.key);
  if (!existing.value) {
    op.check({ key: invoiceKey(inv.key), versionstamp: null })
      .set(invoiceKey(inv.key), inv)
      .set(dueKey(inv.key), null)
      .set(["invoices_recent", inv.created_at, inv.key], null);
    const idx = billIndex(inv);
    if (idx) op.set(idx, inv.key);
    for (const l of inv.lines) {
      op.set(["invoices_by_bill", l.bill_id], inv.key).delete(lineKey(inv.month!, l.bill_id));
    }
  }
  return (await op.commit()).ok;
}

/** Adds a paid bill without fiscal data to its month's global lines, deleting its event. */
export async function addGlobalLine(
  kv: Deno.Kv,
  e: InvoiceEvent,
  month: string,
  line: GlobalLine & { currency: string },
): Promise<boolean> {
  return (await kv.atomic().check(e.entry).delete(e.entry.key)
    .set(lineKey(month, line.bill_id), line).sum(INVOICES_REVISION, 1n).commit()).ok;
}

/** The bills of `month` waiting for its global invoice. */
export async function globalLines(
  kv: Deno.Kv,
  month: string,
): Promise<Deno.KvEntry<GlobalLine & { currency: string }>[]> {
  const out: Deno.KvEntry<GlobalLine & { currency: string }>[] = [];
  for await (
    const e of kv.list<GlobalLine & { currency: string }>({ prefix: lineKey(month, 0).slice(0, 2) })
  ) {
    out.push(e);
  }
  return out;
}

/** Takes a bill out of its month's global lines (it gets a named invoice instead). */
export async function takeGlobalLine(
  kv: Deno.Kv,
  month: string,
  billId: number,
): Promise<Deno.KvEntry<GlobalLine & { currency: string }> | null> {
  const e = await kv.get<GlobalLine & { currency: string }>(lineKey(month, billId));
  return e.value ? e as Deno.KvEntry<GlobalLine & { currency: string }> : null;
}

/** Creates a named invoice for a bill taken out of the global lines, in one commit. */
export async function moveLineToNamed(
  kv: Deno.Kv,
  line: Deno.KvEntry<unknown>,
  inv: StoredInvoice,
): Promise<boolean> {
  const op = kv.atomic().check(line).delete(line.key).sum(INVOICES_REVISION, 1n)
    .check({ key: invoiceKey(inv.key), versionstamp: null })
    .set(invoiceKey(inv.key), inv).set(dueKey(inv.key), null)
    .set(["invoices_recent", inv.created_at, inv.key], null);
  op.set(["invoices_by_bill", inv.bill_id!], inv.key);
  return (await op.commit()).ok;
}

/** An invoice by key, with its versionstamp. */
export async function getInvoiceEntry(
  kv: Deno.Kv,
  key: string,
): Promise<Deno.KvEntry<StoredInvoice> | null> {
  const e = await kv.get<StoredInvoice>(invoiceKey(key));
  return e.value ? e as Deno.KvEntry<StoredInvoice> : null;
}

/** The invoice key of a unit bill (named or global), or of a station bill. */
export async function invoiceKeyOfBill(
  kv: Deno.Kv,
  billId: number,
  owner = false,
): Promise<string | null> {
  return (await kv.get<string>([owner ? "invoices_by_owner_bill" : "invoices_by_bill", billId]))
    .value;
}

/** The invoices due at `now` (pending, or a claim whose lease ended), at most `limit`. */
export async function dueInvoices(
  kv: Deno.Kv,
  now: number,
  limit: number,
): Promise<Deno.KvEntry<StoredInvoice>[]> {
  const out: Deno.KvEntry<StoredInvoice>[] = [];
  for await (const d of kv.list({ prefix: ["invoices_due"] })) {
    const e = await getInvoiceEntry(kv, d.key[1] as string);
    if (!e || (e.value.status !== "pending" && e.value.status !== "issuing")) {
      await kv.delete(d.key);
      continue;
    }
    if (e.value.next_at <= now) out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Writes `next` over `entry` (checked: false when another process changed it); the due index
 * follows the status. A named or owner invoice becoming valid stages its mail to the receiver
 * (PDF and XML attached) in the same commit: one per invoice (the event's key).
 */
export async function putInvoice(
  kv: Deno.Kv,
  entry: Deno.KvEntry<StoredInvoice>,
  next: StoredInvoice,
): Promise<string | null> {
  const op = kv.atomic().check(entry).set(invoiceKey(next.key), next)
    .sum(INVOICES_REVISION, 1n);
  if (next.status === "pending" || next.status === "issuing") op.set(dueKey(next.key), null);
  else op.delete(dueKey(next.key));
  if (entry.value.status !== "valid" && next.status === "valid" && next.user_id !== null) {
    stageOutboxEvent(op, invoiceIssuedEvent(next.key, next.user_id));
  }
  const res = await op.commit();
  return res.ok ? res.versionstamp : null;
}

/** The latest invoices, newest first, at most `limit`. */
export async function recentInvoices(kv: Deno.Kv, limit: number): Promise<StoredInvoice[]> {
  const keys: string[] = [];
  for await (const e of kv.list({ prefix: ["invoices_recent"] }, { limit, reverse: true })) {
    keys.push(e.key[2] as string);
  }
  const out: StoredInvoice[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    const got = await kv.getMany<StoredInvoice[]>(keys.slice(i, i + 10).map(invoiceKey));
    for (const g of got) if (g.value) out.push(g.value);
  }
  return out;
}

/** The invoices of unit bills (named or global) or station bills `ids`, by bill id. */
export async function invoicesOfBills(
  kv: Deno.Kv,
  ids: readonly number[],
  owner = false,
): Promise<Map<number, StoredInvoice>> {
  const index = owner ? "invoices_by_owner_bill" : "invoices_by_bill";
  const keyOf = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<string[]>(ids.slice(i, i + 10).map((id) => [index, id]));
    got.forEach((g, j) => g.value && keyOf.set(ids[i + j], g.value));
  }
  const keys = [...new Set(keyOf.values())];
  const byKey = new Map<string, StoredInvoice>();
  for (let i = 0; i < keys.length; i += 10) {
    const got = await kv.getMany<StoredInvoice[]>(keys.slice(i, i + 10).map(invoiceKey));
    for (const g of got) if (g.value) byKey.set(g.value.key, g.value);
  }
  const out = new Map<number, StoredInvoice>();
  for (const [id, key] of keyOf) {
    const inv = byKey.get(key);
    if (inv) out.set(id, inv);
  }
  return out;
}
