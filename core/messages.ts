/**
 * Messages that leave the portal (issue 28): their kinds, the events a bill's change causes,
 * who may turn each kind off, the retry schedule and what an SMTP refusal means. Pure: the
 * outbox (db/outbox.ts) stores the events, services/messages/ delivers them.
 */
import type { CustomerBill, UnitBill } from "./bill.ts";

/** What a message is about. */
export const MESSAGE_KINDS = [
  "bill_finalized",
  "bill_reminder",
  "bill_overdue",
  "spei_reference",
  "payment_receipt",
  "owner_statement",
  "meter_offline",
  "reconciliation_failed",
  "failed_digest",
  "password_reset",
  "password_changed",
  "email_changed",
  "alert",
  "zone_prices",
  "owner_payments",
  "invoice_issued",
] as const;
/** A kind of message. */
export type MessageKind = typeof MESSAGE_KINDS[number];

/** The ways a message reaches a person. */
export const CHANNELS = ["email", "whatsapp"] as const;
/** A channel. */
export type Channel = typeof CHANNELS[number];

/** The kinds a person may turn off in Settings, and whether each is on when never set. */
export const OPTIONAL_KINDS: Readonly<Partial<Record<MessageKind, boolean>>> = {
  bill_finalized: true,
  bill_reminder: true,
  bill_overdue: true,
  spei_reference: true,
  payment_receipt: true,
  owner_statement: true,
  meter_offline: true,
  reconciliation_failed: true,
  failed_digest: false,
  alert: true,
  zone_prices: true,
  owner_payments: true,
  invoice_issued: true,
};

/** A person's choices: a kind → on or off, and WhatsApp opted in or not. */
export interface MessagePrefs {
  kinds: Partial<Record<MessageKind, boolean>>;
  whatsapp: boolean;
}

/** Whether `kind` goes to a person with `prefs` (security notices always do). */
export function wants(prefs: MessagePrefs | null, kind: MessageKind): boolean {
  const dflt = OPTIONAL_KINDS[kind];
  if (dflt === undefined) return true;
  return prefs?.kinds[kind] ?? dflt;
}

/** Parameters of an event (ids and small texts; the message is worded when it is sent). */
export type MessageParams = Record<string, string | number>;

/**
 * An event to tell people about, written in the same commit as the change causing it. Its key
 * names the event: one message per key, recipient and channel ever exists.
 */
export interface OutboxEvent {
  key: string;
  kind: MessageKind;
  /** Account ids, every active admin, or the tenants of a zone's stations (when it is sent). */
  to: number[] | "admins" | { zone: number };
  params: MessageParams;
}

/** The events of a unit bill's change from `old` to `next` (none for drafts or vacant units). */
export function billEvents(old: UnitBill | null, next: UnitBill): OutboxEvent[] {
  if (next.tenant_id === null || !next.is_finalized) return [];
  const to = [next.tenant_id];
  const params = { bill_id: next.id };
  const out: OutboxEvent[] = [];
  if (!old?.is_finalized && next.total_cost > 0) {
    out.push({ key: `bill_finalized:${next.id}`, kind: "bill_finalized", to, params });
  }
  const was = old?.payment_status;
  if (next.payment_status === "overdue" && was !== "overdue") {
    out.push({ key: `bill_overdue:${next.id}`, kind: "bill_overdue", to, params });
  }
  if (next.payment_status === "paid" && was !== "paid") {
    out.push({ key: `payment_receipt:${next.id}`, kind: "payment_receipt", to, params });
  }
  const charge = next.openpay_charge_id;
  if (
    next.payment_status === "awaiting_spei_transfer" && charge &&
    (was !== "awaiting_spei_transfer" || old?.openpay_charge_id !== charge)
  ) {
    out.push({ key: `spei_reference:${next.id}:${charge}`, kind: "spei_reference", to, params });
  }
  return out;
}

/** The owner's statement when a station bill with an owner is finalized. */
export function customerBillEvents(old: CustomerBill | null, next: CustomerBill): OutboxEvent[] {
  if (old?.is_finalized || !next.is_finalized || next.customer_id === null) return [];
  return [{
    key: `owner_statement:${next.id}`,
    kind: "owner_statement",
    to: [next.customer_id],
    params: { bill_id: next.id },
  }];
}

/**
 * The tenants' notice of a zone's new prices (`applies_from`: the month they apply from, or the
 * day of a correction), once per price history entry `record`.
 */
export function zonePricesEvent(zone: number, applies_from: string, record: number): OutboxEvent {
  return {
    key: `zone_prices:${zone}:${record}`,
    kind: "zone_prices",
    to: { zone },
    params: { zone_id: zone, applies_from },
  };
}

/**
 * The mail of a named or owner invoice Facturapi made (issue 31), with its PDF and XML: once
 * per invoice, staged in the commit that records it valid.
 */
export function invoiceIssuedEvent(invoiceKey: string, userId: number): OutboxEvent {
  return {
    key: `invoice_issued:${invoiceKey}`,
    kind: "invoice_issued",
    to: [userId],
    params: { invoice_key: invoiceKey },
  };
}

/** The reminder of an unpaid bill, due within `REMINDER_DAYS` of `today` (`YYYY-MM-DD`). */
export const REMINDER_DAYS = 3;

/** The reminder event of a bill, or null when it is not due for one on `today`. */
export function reminderEvent(bill: UnitBill, today: string): OutboxEvent | null {
  const due = bill.payment_due_date;
  if (bill.tenant_id === null || !bill.is_finalized || due === null || bill.total_cost <= 0) {
    return null;
  }
  if (bill.payment_status === "paid" || bill.payment_status === "overdue") return null;
  if (due < today || daysBetween(today, due) > REMINDER_DAYS) return null;
  return {
    key: `bill_reminder:${bill.id}`,
    kind: "bill_reminder",
    to: [bill.tenant_id],
    params: { bill_id: bill.id },
  };
}

/** Whole days from `a` to `b` (`YYYY-MM-DD`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Attempts of a message before it is failed. */
export const MAX_ATTEMPTS = 6;

/** The wait before attempt `attempts + 1` (1, 2, 4, 8, 16 minutes…, at most 6 hours). */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}

/** What came of handing a message to its channel. */
export type SendOutcome =
  | { ok: true }
  | { ok: false; permanent: boolean; reason: string; retryAfterMs?: number };

/**
 * An SMTP reply code's meaning: 5xx is a permanent refusal (the address or the message will
 * not be taken), 4xx a temporary one; anything else (no reply: the connection failed) is
 * temporary.
 */
export function smtpRefusal(code: number | undefined): "permanent" | "temporary" {
  return code !== undefined && code >= 500 && code < 600 ? "permanent" : "temporary";
}
