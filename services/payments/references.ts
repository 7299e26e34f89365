/**
 * Generating an SPEI reference for a tenant's bill (issue 12; spec 001 sections 2, 3, 7): a
 * merchant-level `bank_account` charge for the amount due, valid 5 calendar days, with an
 * `order_id` unique per bill and attempt; the bill moves to `awaiting_spei_transfer` with the
 * CLABE, reference, bank, expiry and charge id. A live reference is answered again instead of
 * a second charge, and concurrent requests for one bill make one charge (one promise per bill in
 * this process, a lock in the store across processes). A charge Openpay made but whose answer
 * was lost (a timeout, a process that ended, Openpay refusing the order id as used) is found by
 * its order id and shown, or passed over for the next order id when spent (`orders.ts`): a
 * bill is never left unpayable. Openpay down or refusing changes nothing and refuses with
 * `unavailable`, in the tenant's words, never Openpay's.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { periodOfBill } from "../../core/bill.ts";
import {
  amountDue,
  changePayment,
  hasLiveReference,
  isPayable,
  SPEI_REFERENCE_DAYS,
  visibleToTenant,
} from "../../core/payment.ts";
import { centsToUnits } from "../../core/money.ts";
import { getUnitBillEntry, type StoredUnitBill, updateUnitBill } from "../../db/bills.ts";
import { getDevice } from "../../db/devices.ts";
import { putCharge, releaseBillLock, takeBillLock } from "../../db/payments.ts";
import { conflict, notFound, unavailable } from "../refusal.ts";
import {
  isOrderTaken,
  type OpenpayCharge,
  openpayClient,
  openpayConfigured,
  OpenpayError,
} from "./openpay_client.ts";
import { findOrderCharge, type FoundCharge, orderIdOf } from "./orders.ts";
import { settlePaid } from "./settle.ts";

/** Locale keys of the refusals of payments. */
export const PAYMENT_ERRORS = {
  notFound: "payments.errors.not_found",
  notPayable: "payments.errors.not_payable",
  busy: "payments.errors.busy",
  notConfigured: "payments.errors.not_configured",
  processorDown: "payments.errors.processor_unavailable",
  processorRefused: "payments.errors.processor_refused",
  processorTimeout: "payments.errors.processor_timeout",
  referenceUnknown: "payments.errors.reference_unknown",
} as const;

/** How long a bill's lock is held at most (longer than one call to Openpay). */
const LOCK_MS = 30_000;

/** A tenant's own bill (not found for anyone else's, a draft or one with nothing due). */
export async function tenantBillEntry(
  deps: Deps,
  user: User,
  id: number,
): Promise<Deno.KvEntry<StoredUnitBill>> {
  const entry = await getUnitBillEntry(deps.kv, id);
  if (
    !entry || user.role !== "user" || entry.value.tenant_id !== user.id ||
    !visibleToTenant(entry.value)
  ) throw notFound(PAYMENT_ERRORS.notFound);
  return entry;
}

const inFlight = new Map<number, Promise<StoredUnitBill>>();

/**
 * The bill with a live SPEI reference: the one it has, or a new one (see the module's text).
 * Refuses another tenant's bill (not found), a paid or draft bill (conflict), and Openpay being
 * down or refusing (unavailable).
 */
export async function referenceFor(deps: Deps, user: User, id: number): Promise<StoredUnitBill> {
  const entry = await tenantBillEntry(deps, user, id);
  if (hasLiveReference(entry.value, deps.now())) return entry.value;
  if (!isPayable(entry.value)) throw conflict(PAYMENT_ERRORS.notPayable);
  const running = inFlight.get(id);
  if (running) return running;
  const work = makeReference(deps, user, id).finally(() => inFlight.delete(id));
  inFlight.set(id, work);
  return work;
}

/** How many order ids one request may pass over (spent by lost or expired charges). */
const MAX_ORDER_TRIES = 5;

async function makeReference(deps: Deps, user: User, id: number): Promise<StoredUnitBill> {
  const s = deps.config.openpay;
  if (!openpayConfigured(s)) throw unavailable(PAYMENT_ERRORS.notConfigured);
  const now = deps.now();
  if (!await takeBillLock(deps.kv, id, now, now + LOCK_MS)) throw conflict(PAYMENT_ERRORS.busy);
  try {
    const entry = await tenantBillEntry(deps, user, id);
    if (hasLiveReference(entry.value, now)) return entry.value;
    if (!isPayable(entry.value)) throw conflict(PAYMENT_ERRORS.notPayable);
    const bill = entry.value;
    const client = openpayClient(s);
    const cents = amountDue(bill);
    const station = await getDevice(deps.kv, bill.station_id);
    const unit = station?.config.station?.units.find((u) => u.id === bill.unit_id);
    const [name, ...rest] = (user.full_name || user.email).trim().split(/\s+/);
    let attempt = 1 +
      bill.payment_history.filter((c) => c.cause === "reference_created").length;
    for (let tries = 0; tries < MAX_ORDER_TRIES; tries++, attempt++) {
      const orderId = orderIdOf(id, attempt);
      let charge: OpenpayCharge;
      try {
        charge = await client.createCharge({
          method: "bank_account",
          amount: centsToUnits(cents),
          description: `${station?.name ?? bill.station_id} · ${unit?.name || bill.unit_id} · ${
            periodOfBill(bill)
          }`.slice(0, 250),
          order_id: orderId,
          due_date: new Date(now + SPEI_REFERENCE_DAYS * 86_400_000).toISOString().slice(0, 19) +
            "Z",
          customer: { name, last_name: rest.join(" ") || name, email: user.email },
        });
      } catch (e) {
        if (!(e instanceof OpenpayError)) throw e;
        const found = await lostCharge(deps, id, orderId, cents, e);
        if (found.kind === "spent") continue;
        if (found.kind === "completed") {
          await settlePaid(deps, found.charge, { event: "reference", cause: "processor_event" });
          return (await tenantBillEntry(deps, user, id)).value;
        }
        charge = found.charge;
      }
      return await keepReference(deps, user, id, charge, orderId, cents);
    }
    deps.log.log("error", "openpay order ids spent", { bill: id, attempt });
    throw unavailable(PAYMENT_ERRORS.processorDown);
  } finally {
    await releaseBillLock(deps.kv, id);
  }
}

/**
 * After a failed charge request: the charge Openpay made all the same (its answer was lost, or
 * the order id was used by a request whose answer never came back), found by its order id; a
 * refusal in the tenant's words when there is none to show. Openpay's own text stays in the log.
 */
async function lostCharge(
  deps: Deps,
  id: number,
  orderId: string,
  cents: number,
  e: OpenpayError,
): Promise<Exclude<FoundCharge, { kind: "none" }>> {
  deps.log.log("warn", "openpay charge failed", {
    bill: id,
    order: orderId,
    kind: e.kind,
    status: e.status,
    error_code: e.body?.error_code,
    description: e.body?.description,
    request_id: e.body?.request_id,
  });
  const taken = isOrderTaken(e);
  // Refused for any other reason: Openpay made nothing.
  if (e.kind === "refused" && !taken) throw unavailable(PAYMENT_ERRORS.processorRefused);
  let found: FoundCharge;
  try {
    found = await findOrderCharge(openpayClient(deps.config.openpay), orderId, cents, deps.now());
  } catch (lookup) {
    if (!(lookup instanceof OpenpayError)) throw lookup;
    deps.log.log("warn", "openpay charge lookup failed", { bill: id, order: orderId });
    // Openpay may hold the charge: the next request finds it.
    throw unavailable(PAYMENT_ERRORS.processorTimeout);
  }
  if (found.kind !== "none") {
    deps.log.log("info", "openpay charge found by its order id", {
      bill: id,
      order: orderId,
      kind: found.kind,
    });
    return found;
  }
  if (taken) return { kind: "spent" }; // refused as used, yet not listed: passed over
  throw unavailable(PAYMENT_ERRORS.processorDown); // no charge was made
}

/** Keeps a live charge and moves the bill to `awaiting_spei_transfer` with its details. */
async function keepReference(
  deps: Deps,
  user: User,
  id: number,
  charge: OpenpayCharge,
  orderId: string,
  cents: number,
): Promise<StoredUnitBill> {
  const now = deps.now();
  const pm = charge.payment_method;
  if (!pm || !pm.clabe || !pm.name) {
    throw unavailable(PAYMENT_ERRORS.processorDown, "the charge has no transfer details");
  }
  const at = new Date(now).toISOString();
  const expiry = charge.due_date ?? new Date(now + SPEI_REFERENCE_DAYS * 86_400_000)
    .toISOString();
  await putCharge(deps.kv, {
    id: charge.id,
    bill_id: id,
    order_id: charge.order_id ?? orderId,
    amount: cents,
    status: charge.status,
    clabe: pm.clabe,
    reference: pm.name,
    bank: pm.bank,
    expiry_date: expiry,
    created_at: at,
    updated_at: at,
  });
  for (let i = 0; i < 5; i++) {
    const entry = await tenantBillEntry(deps, user, id);
    if (!isPayable(entry.value)) return entry.value; // a payment arrived meanwhile
    const next = changePayment(entry.value, "awaiting_spei_transfer", {
      at,
      cause: "reference_created",
      by: user.email,
      method: "spei",
      reference: pm.name,
    }, {
      openpay_charge_id: charge.id,
      spei_clabe: pm.clabe,
      spei_reference: pm.name,
      spei_bank: pm.bank,
      spei_expiry_date: expiry,
    });
    if (await updateUnitBill(deps.kv, entry, next)) return next;
  }
  throw conflict(PAYMENT_ERRORS.busy);
}
