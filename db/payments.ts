/**
 * SPEI charges, processor events and their flags in Deno KV (issue 12): the only module that
 * knows these keys. The bills themselves are db/bills.ts's.
 *
 * Key layout:
 * - `["openpay_charges", chargeId]` → {@link StoredCharge}: every charge the portal made
 * - `["openpay_charges_open", chargeId]` → bill id: charges still in progress (the reconciliation
 *   sweep reads only these)
 * - `["openpay_events", type, transactionId]` → {@link StoredEvent}: each event handled once
 *   (claimed as `received`, its outcome written once handled)
 * - `["payment_flags", at, id]` → {@link PaymentFlag}: events a person must look at
 * - `["openpay_verification"]` → the last webhook verification code and when it came
 * - `["payment_locks", billId]` → expiry (epoch ms): one reference made at a time per bill
 */
import { stageOutboxEvent } from "./outbox.ts";
import type { PaymentFlag, StoredEvent } from "../core/payment_events.ts";

/** A charge made for a bill. */
export interface StoredCharge {
  id: string;
  bill_id: number;
  order_id: string;
  /** Cents. */
  amount: number;
  status: string;
  clabe: string;
  reference: string;
  bank: string;
  expiry_date: string | null;
  created_at: string;
  updated_at: string;
}

/** Writes a charge (and its open index while in progress). */
export async function putCharge(kv: Deno.Kv, c: StoredCharge): Promise<void> {
  const op = kv.atomic().set(["openpay_charges", c.id], c);
  if (c.status === "in_progress") op.set(["openpay_charges_open", c.id], c.bill_id);
  else op.delete(["openpay_charges_open", c.id]);
  await op.commit();
}

/** A charge by id, or null. */
export async function getCharge(kv: Deno.Kv, id: string): Promise<StoredCharge | null> {
  return (await kv.get<StoredCharge>(["openpay_charges", id])).value;
}

/** Every charge, newest first. */
export async function listCharges(kv: Deno.Kv): Promise<StoredCharge[]> {
  const out: StoredCharge[] = [];
  for await (const e of kv.list<StoredCharge>({ prefix: ["openpay_charges"] })) out.push(e.value);
  return out.sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** Ids of the charges still in progress. */
export async function openChargeIds(kv: Deno.Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: ["openpay_charges_open"] })) out.push(String(e.key[1]));
  return out;
}

/**
 * How long a claimed event belongs to its claimer: an event still `received` after this was
 * left by a handling that never finished (the process ended), and is claimed again.
 */
const EVENT_LEASE_MS = 5 * 60_000;

/**
 * Claims an event (`e.received_at` is now): true the first time (type, transaction id) is
 * seen, or when an earlier claim was never finished within {@link EVENT_LEASE_MS}; false while
 * it is handled or once it was.
 */
export async function claimEvent(kv: Deno.Kv, e: StoredEvent): Promise<boolean> {
  const key = ["openpay_events", e.type, e.transaction_id];
  const cur = await kv.get<StoredEvent>(key);
  if (
    cur.value !== null &&
    !(cur.value.outcome === "received" &&
      Date.parse(cur.value.received_at) + EVENT_LEASE_MS <= Date.parse(e.received_at))
  ) return false;
  return (await kv.atomic().check(cur).set(key, e).commit()).ok;
}

/** Records what came of a claimed event. */
export async function settleEvent(
  kv: Deno.Kv,
  e: StoredEvent,
): Promise<void> {
  await kv.set(["openpay_events", e.type, e.transaction_id], e);
}

/** Forgets a claimed event, so that its next delivery is handled (after a failure). */
export async function releaseEvent(kv: Deno.Kv, type: string, txId: string): Promise<void> {
  await kv.delete(["openpay_events", type, txId]);
}

/** Every event, newest first. */
export async function listEvents(kv: Deno.Kv): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const e of kv.list<StoredEvent>({ prefix: ["openpay_events"] })) out.push(e.value);
  return out.sort((a, b) => b.received_at.localeCompare(a.received_at));
}

/** Keeps a flag for a person; one per (reason, event, transaction). */
export async function addFlag(kv: Deno.Kv, f: Omit<PaymentFlag, "id">): Promise<void> {
  const id = `${f.reason}:${f.event_type}:${f.transaction_id}`;
  const key = ["payment_flag_ids", id];
  const op = kv.atomic().check({ key, versionstamp: null }).set(key, true)
    .set(["payment_flags", f.at, id], { ...f, id });
  // The admins are told by mail from the same commit, once per flag (issue 28).
  stageOutboxEvent(op, {
    key: `reconciliation_failed:${id}`,
    kind: "reconciliation_failed",
    to: "admins",
    params: { reason: f.reason, charge: f.transaction_id, bill: f.bill_id ?? "—" },
  });
  await op.commit();
}

/** Every flag, newest first. */
export async function listFlags(kv: Deno.Kv): Promise<PaymentFlag[]> {
  const out: PaymentFlag[] = [];
  for await (const e of kv.list<PaymentFlag>({ prefix: ["payment_flags"] }, { reverse: true })) {
    out.push(e.value);
  }
  return out;
}

/** Keeps the webhook verification code. */
export async function putVerification(kv: Deno.Kv, code: string, at: string): Promise<void> {
  await kv.set(["openpay_verification"], { code, at });
}

/** The last webhook verification code, or null. */
export async function getVerification(
  kv: Deno.Kv,
): Promise<{ code: string; at: string } | null> {
  return (await kv.get<{ code: string; at: string }>(["openpay_verification"])).value;
}

/** Takes a bill's lock until `until` (epoch ms); false while another holder has it. */
export async function takeBillLock(
  kv: Deno.Kv,
  billId: number,
  now: number,
  until: number,
): Promise<boolean> {
  const key = ["payment_locks", billId];
  const cur = await kv.get<number>(key);
  if (cur.value !== null && cur.value > now) return false;
  return (await kv.atomic().check(cur).set(key, until).commit()).ok;
}

/** Gives a bill's lock back. */
export async function releaseBillLock(kv: Deno.Kv, billId: number): Promise<void> {
  await kv.delete(["payment_locks", billId]);
}
