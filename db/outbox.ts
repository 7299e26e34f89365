/**
 * The outbox of messages (issue 28) in Deno KV.
 *
 * Key layout:
 * - `["outbox_events", key]` → {@link OutboxEvent}: staged in the commit of the change that
 *   causes it ({@link stageOutboxEvent}); turned into deliveries by the worker, then deleted
 * - `["outbox", id]` → {@link Delivery}: one per event key, recipient and channel (the id is the
 *   three of them), created only when absent, so a repeated event sends nothing twice
 * - `["outbox_due", at, id]` → null: a delivery to attempt at `at` (pending, or claimed with a
 *   lease that ends at `at`)
 * - `["outbox_recent", created_at, id]` → null: deliveries by creation, for the admin's list
 *   (kept with the delivery, which expires after {@link KEEP_MS})
 * - `["mail_undeliverable", email]` → {@link Undeliverable}: an address a server refused
 *   for good; no mail goes to it (a new address is not in it)
 * - `["outbox_once", name]` → true: a daily message already queued (see {@link firstTime})
 */
import type { Channel, MessageKind, MessageParams, OutboxEvent } from "../core/messages.ts";

/** A message to one person over one channel, and how its delivery goes. */
export interface Delivery {
  id: string;
  event: string;
  kind: MessageKind;
  user_id: number;
  channel: Channel;
  params: MessageParams;
  state: "pending" | "sending" | "sent" | "failed" | "skipped";
  attempts: number;
  /** When it is next attempted (pending), or when its claim's lease ends (sending). */
  next_at: number;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  /** Why the last attempt failed or why it was skipped. */
  error: string | null;
}

/** An address that was refused for good. */
export interface Undeliverable {
  at: number;
  reason: string;
}

/** How long a delivery record is kept. */
export const KEEP_MS = 90 * 86_400_000;

const eventKey = (key: string) => ["outbox_events", key];
const deliveryKey = (id: string) => ["outbox", id];
/** The prefix of the deliveries still to attempt (read by the health check too). */
export const OUTBOX_DUE: Deno.KvKey = ["outbox_due"];
const dueKey = (at: number, id: string) => [...OUTBOX_DUE, at, id];
const recentKey = (at: number, id: string) => ["outbox_recent", at, id];
const undeliverableKey = (email: string) => ["mail_undeliverable", email];

/** The id of the one delivery of an event to a recipient over a channel. */
export const deliveryId = (event: string, userId: number, channel: Channel) =>
  `${event}|${userId}|${channel}`;

/** Adds an event to `op`, the commit of the change that causes it. */
export function stageOutboxEvent(op: Deno.AtomicOperation, event: OutboxEvent): void {
  op.set(eventKey(event.key), event);
}

/** Writes an event alone (a change that is itself nothing but the event). */
export async function putOutboxEvent(kv: Deno.Kv, event: OutboxEvent): Promise<void> {
  await kv.set(eventKey(event.key), event);
}

/** Events not yet turned into deliveries, oldest key first, at most `limit`. */
export async function pendingEvents(
  kv: Deno.Kv,
  limit: number,
): Promise<Deno.KvEntry<OutboxEvent>[]> {
  const out: Deno.KvEntry<OutboxEvent>[] = [];
  for await (const e of kv.list<OutboxEvent>({ prefix: ["outbox_events"] }, { limit })) {
    out.push(e);
  }
  return out;
}

/**
 * Turns an event into its deliveries (those that do not exist yet) and deletes it, in one
 * commit; false when the event changed meanwhile (read it again).
 */
export async function expandEvent(
  kv: Deno.Kv,
  event: Deno.KvEntry<OutboxEvent>,
  recipients: { user_id: number; channel: Channel }[],
  now: number,
): Promise<boolean> {
  const ids = recipients.map((r) => deliveryId(event.value.key, r.user_id, r.channel));
  const existing = new Set<string>();
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<Delivery[]>(ids.slice(i, i + 10).map(deliveryKey));
    for (const g of got) if (g.value) existing.add(g.value.id);
  }
  const op = kv.atomic().check(event).delete(event.key);
  recipients.forEach((r, i) => {
    const id = ids[i];
    if (existing.has(id)) return;
    const d: Delivery = {
      id,
      event: event.value.key,
      kind: event.value.kind,
      user_id: r.user_id,
      channel: r.channel,
      params: event.value.params,
      state: "pending",
      attempts: 0,
      next_at: now,
      created_at: now,
      updated_at: now,
      sent_at: null,
      error: null,
    };
    op.check({ key: deliveryKey(id), versionstamp: null })
      .set(deliveryKey(id), d, { expireIn: KEEP_MS })
      .set(dueKey(now, id), null)
      .set(recentKey(now, id), null, { expireIn: KEEP_MS });
  });
  return (await op.commit()).ok;
}

/** A delivery claimed by this process until `lease_until`, with the versionstamp of the claim. */
export interface Claimed {
  delivery: Delivery;
  versionstamp: string;
}

/**
 * Claims up to `limit` deliveries due at `now`: each moves to `sending` with a lease of
 * `leaseMs` in one commit checked against what was read, so two processes never hold the same
 * one; a claim whose process died is due again when its lease ends.
 */
export async function claimDue(
  kv: Deno.Kv,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<Claimed[]> {
  const out: Claimed[] = [];
  const iter = kv.list<null>({ start: ["outbox_due"], end: ["outbox_due", now + 1] }, { limit });
  for await (const e of iter) {
    const id = e.key[2] as string;
    const cur = await kv.get<Delivery>(deliveryKey(id));
    const d = cur.value;
    if (!d || (d.state !== "pending" && d.state !== "sending") || d.next_at !== e.key[1]) {
      await kv.atomic().check(cur).delete(e.key).commit(); // an index entry left behind
      continue;
    }
    const next: Delivery = {
      ...d,
      state: "sending",
      attempts: d.attempts + 1,
      next_at: now + leaseMs,
      updated_at: now,
    };
    const res = await kv.atomic().check(cur).set(deliveryKey(id), next, { expireIn: KEEP_MS })
      .delete(e.key).set(dueKey(next.next_at, id), null).commit();
    if (res.ok) out.push({ delivery: next, versionstamp: res.versionstamp });
  }
  return out;
}

/**
 * Ends a claim: `sent`, `failed`, `skipped`, or `pending` again at `patch.next_at`. Checked
 * against the claim: false when its lease ended and another process holds it now.
 */
export async function finishClaim(
  kv: Deno.Kv,
  claimed: Claimed,
  patch: Pick<Delivery, "state" | "error"> & Partial<Pick<Delivery, "next_at" | "sent_at">>,
  now: number,
): Promise<boolean> {
  const d = claimed.delivery;
  const next: Delivery = { ...d, ...patch, updated_at: now };
  const op = kv.atomic()
    .check({ key: deliveryKey(d.id), versionstamp: claimed.versionstamp })
    .set(deliveryKey(d.id), next, { expireIn: KEEP_MS })
    .delete(dueKey(d.next_at, d.id));
  if (next.state === "pending") op.set(dueKey(next.next_at, d.id), null);
  return (await op.commit()).ok;
}

/** Puts a failed (or skipped) delivery back to pending, due now ("send again"). */
export async function resendDelivery(kv: Deno.Kv, id: string, now: number): Promise<boolean> {
  const cur = await kv.get<Delivery>(deliveryKey(id));
  const d = cur.value;
  if (!d || (d.state !== "failed" && d.state !== "skipped")) return false;
  const next: Delivery = { ...d, state: "pending", attempts: 0, next_at: now, updated_at: now };
  const res = await kv.atomic().check(cur).set(deliveryKey(id), next, { expireIn: KEEP_MS })
    .set(dueKey(now, id), null).commit();
  return res.ok;
}

/** A delivery by id. */
export async function getDelivery(kv: Deno.Kv, id: string): Promise<Delivery | null> {
  return (await kv.get<Delivery>(deliveryKey(id))).value;
}

/** The latest deliveries, newest first, at most `limit`. */
export async function recentDeliveries(kv: Deno.Kv, limit: number): Promise<Delivery[]> {
  const ids: string[] = [];
  const iter = kv.list<null>({ prefix: ["outbox_recent"] }, { limit, reverse: true });
  for await (const e of iter) ids.push(e.key[2] as string);
  const out: Delivery[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<Delivery[]>(ids.slice(i, i + 10).map(deliveryKey));
    for (const g of got) if (g.value) out.push(g.value);
  }
  return out;
}

/** Marks an address as refused for good. */
export async function markUndeliverable(
  kv: Deno.Kv,
  email: string,
  reason: string,
  now: number,
): Promise<void> {
  await kv.set(undeliverableKey(email), { at: now, reason } satisfies Undeliverable);
}

/** Whether (and why) an address was refused for good. */
export async function undeliverable(kv: Deno.Kv, email: string): Promise<Undeliverable | null> {
  return (await kv.get<Undeliverable>(undeliverableKey(email))).value;
}

/**
 * True for the first caller only, per `name` (key `["outbox_once", name]`, kept 3 days): a
 * daily message queued by one of several processes.
 */
export async function firstTime(kv: Deno.Kv, name: string): Promise<boolean> {
  const key = ["outbox_once", name];
  const res = await kv.atomic().check({ key, versionstamp: null })
    .set(key, true, { expireIn: 3 * 86_400_000 }).commit();
  return res.ok;
}
