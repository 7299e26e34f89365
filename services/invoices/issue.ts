/**
 * Issuing invoices once (issue 31). A paid bill's event (staged in the bill's paid commit,
 * `db/invoices.ts`) becomes, in one commit that deletes the event, either a pending named
 * invoice (its tenant has fiscal data) or a line of the month's global invoice; a finalized
 * station bill's event, the owner's invoice. Pending invoices are claimed with a KV check and a
 * lease, so two processes never send one together, and sent to Facturapi with the invoice's
 * own `idempotency_key`: a process killed after Facturapi made it but before the answer was
 * kept sends the same key again when the lease ends, and Facturapi answers the invoice it
 * made. A refusal (bad RFC, regime mismatch) is kept as failed with Facturapi's message; a
 * timeout or a 5xx is tried again after 1, 2, 4… minutes.
 */
import type { Deps } from "../deps.ts";
import {
  type CfdiBody,
  globalInvoiceBody,
  globalLineOf,
  namedInvoiceBody,
  ownerInvoiceBody,
} from "../../core/cfdi.ts";
import { exchangeFor } from "../../core/cfdi_exchange.ts";
import { getCustomerBillEntry, getUnitBill } from "../../db/bills.ts";
import { getFiscalData } from "../../db/fiscal.ts";
import { getUser } from "../../db/users.ts";
import {
  addGlobalLine,
  createInvoiceFor,
  dropInvoiceEvent,
  dueInvoices,
  type InvoiceEvent,
  pendingInvoiceEvents,
  putInvoice,
  type StoredInvoice,
} from "../../db/invoices.ts";
import { FacturapiError } from "./facturapi_client.ts";
import { invoicingOf } from "./settings.ts";

/** How long a claim lasts: longer than a call may take. */
export const LEASE_MS = 90_000;
/** Attempts of an unanswered call before the invoice is failed. */
export const MAX_ATTEMPTS = 6;

/** A new pending invoice. */
export function newInvoice(
  deps: Deps,
  fields:
    & Pick<StoredInvoice, "key" | "kind" | "bill_id" | "user_id" | "currency">
    & Partial<Pick<StoredInvoice, "month" | "lines">>,
): StoredInvoice {
  const now = deps.now();
  return {
    month: null,
    lines: [],
    ...fields,
    status: "pending",
    idempotency_key: `portal-${fields.key}-${crypto.randomUUID()}`,
    facturapi_id: null,
    uuid: null,
    total: null,
    test: invoicingOf(deps)?.test ?? true,
    error: null,
    attempts: 0,
    next_at: now,
    cancellation: null,
    created_at: now,
    updated_at: now,
  };
}

/** The month (`YYYY-MM`) a bill was paid in. */
export function paidMonth(bill: { payment_date: string | null; updated_at: string }): string {
  return (bill.payment_date ?? bill.updated_at).slice(0, 7);
}

async function handleEvent(deps: Deps, e: InvoiceEvent): Promise<void> {
  if (e.kind === "station") {
    const entry = await getCustomerBillEntry(deps.kv, e.bill_id);
    const bill = entry?.value;
    if (!bill || bill.customer_id === null || !await getFiscalData(deps.kv, bill.customer_id)) {
      await dropInvoiceEvent(deps.kv, e);
      return;
    }
    await createInvoiceFor(
      deps.kv,
      e,
      newInvoice(deps, {
        key: `station:${bill.id}`,
        kind: "owner",
        bill_id: bill.id,
        user_id: bill.customer_id,
        currency: bill.currency,
      }),
    );
    return;
  }
  const bill = await getUnitBill(deps.kv, e.bill_id);
  if (!bill || bill.payment_status !== "paid" || bill.tenant_id === null) {
    await dropInvoiceEvent(deps.kv, e);
    return;
  }
  if (await getFiscalData(deps.kv, bill.tenant_id)) {
    await createInvoiceFor(
      deps.kv,
      e,
      newInvoice(deps, {
        key: `bill:${bill.id}`,
        kind: "named",
        bill_id: bill.id,
        user_id: bill.tenant_id,
        currency: bill.currency,
      }),
    );
  } else {
    await addGlobalLine(deps.kv, e, paidMonth(bill), {
      ...globalLineOf(bill),
      currency: bill.currency,
    });
  }
}

/** Turns waiting events into invoices or global lines; how many were handled. */
export async function handleInvoiceEvents(deps: Deps): Promise<number> {
  let n = 0;
  for (;;) {
    const events = await pendingInvoiceEvents(deps.kv, 50);
    if (events.length === 0) return n;
    for (const e of events) {
      await handleEvent(deps, e);
      n++;
    }
  }
}

/** The start of the failure of an invoice in another currency without its exchange rate. */
export const NO_EXCHANGE_RATE = "no exchange rate for";

/**
 * The body of an invoice as its bill and receiver are now, with the exchange rate of a currency
 * other than MXN (`FACTURAPI_EXCHANGE_RATES`); a reason when there is none.
 */
async function bodyOf(deps: Deps, inv: StoredInvoice): Promise<CfdiBody | string> {
  const body = await baseBodyOf(deps, inv);
  if (typeof body === "string") return body;
  const exchange = exchangeFor(body.currency, deps.config.facturapi.exchange);
  if (!exchange) {
    return `${NO_EXCHANGE_RATE} ${body.currency}: a CFDI in ${body.currency} needs its exchange ` +
      `rate (TipoCambio); set FACTURAPI_EXCHANGE_RATES (e.g. ${body.currency}=17.25), then retry`;
  }
  return { ...body, ...exchange };
}

async function baseBodyOf(deps: Deps, inv: StoredInvoice): Promise<CfdiBody | string> {
  if (inv.kind === "global") {
    const zip = deps.config.facturapi.issuerZip;
    if (!zip) return "FACTURAPI_ZIP (the issuer's ZIP) is not set";
    return globalInvoiceBody(inv.lines, inv.month!, zip, inv.currency, inv.idempotency_key);
  }
  const fiscal = inv.user_id === null ? null : await getFiscalData(deps.kv, inv.user_id);
  if (!fiscal) return "the receiver has no fiscal data";
  const email = (await getUser(deps.kv, inv.user_id!))?.email ?? null;
  if (inv.kind === "owner") {
    const bill = (await getCustomerBillEntry(deps.kv, inv.bill_id!))?.value;
    if (!bill) return "the station bill no longer exists";
    return ownerInvoiceBody(bill, fiscal, email, inv.idempotency_key);
  }
  const bill = await getUnitBill(deps.kv, inv.bill_id!);
  if (!bill) return "the bill no longer exists";
  return namedInvoiceBody(bill, fiscal, email, inv.idempotency_key);
}

/** Retry delay after `attempts` unanswered calls: 1, 2, 4… minutes, at most an hour. */
const retryMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/** Issues one claimed invoice and writes how it ended. */
async function attempt(
  deps: Deps,
  claimed: StoredInvoice,
  versionstamp: string,
): Promise<StoredInvoice> {
  const client = invoicingOf(deps);
  const now = () => deps.now();
  const entry = { key: ["invoices", claimed.key], value: claimed, versionstamp };
  let next: StoredInvoice;
  const body = client ? await bodyOf(deps, claimed) : "invoicing is not configured";
  if (typeof body === "string") {
    next = { ...claimed, status: "failed", error: body, updated_at: now() };
  } else {
    try {
      const got = await client!.createInvoice(body);
      next = {
        ...claimed,
        status: got.status === "canceled" ? "canceled" : "valid",
        facturapi_id: got.id,
        uuid: got.uuid,
        total: Math.round(got.total * 100),
        test: !got.livemode,
        error: null,
        updated_at: now(),
      };
    } catch (e) {
      const err = e instanceof FacturapiError ? e : new FacturapiError(String(e), 0);
      const give = err.refused || claimed.attempts >= MAX_ATTEMPTS;
      next = {
        ...claimed,
        status: give ? "failed" : "pending",
        error: err.message,
        next_at: give ? claimed.next_at : now() + retryMs(claimed.attempts),
        updated_at: now(),
      };
      deps.log.log("warn", "invoice not issued", { key: claimed.key, error: err.message });
    }
  }
  await putInvoice(deps.kv, entry, next);
  return next;
}

/** Claims the due invoices and issues each; what became of them. */
export async function issueDueInvoices(deps: Deps): Promise<StoredInvoice[]> {
  const out: StoredInvoice[] = [];
  for (const e of await dueInvoices(deps.kv, deps.now(), 20)) {
    const claimed: StoredInvoice = {
      ...e.value,
      status: "issuing",
      attempts: e.value.attempts + 1,
      next_at: deps.now() + LEASE_MS,
      updated_at: deps.now(),
    };
    const vs = await putInvoice(deps.kv, e, claimed);
    if (!vs) continue; // another process holds it
    out.push(await attempt(deps, claimed, vs));
  }
  return out;
}

/** One pass: events, then due invoices. */
export async function invoicePass(deps: Deps): Promise<StoredInvoice[]> {
  await handleInvoiceEvents(deps);
  return await issueDueInvoices(deps);
}
