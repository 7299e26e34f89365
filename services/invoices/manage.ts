/**
 * An admin's hand on invoices (issue 31): the list with filters, a failed invoice tried again
 * (same idempotency key: created once), cancellation with the SAT's motive (01 with the
 * replacing invoice), and the PDF and XML of an invoice for whoever may read it.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { isCancelMotive } from "../../core/cfdi.ts";
import {
  getInvoiceEntry,
  invoiceKeyOfBill,
  putInvoice,
  recentInvoices,
  type StoredInvoice,
} from "../../db/invoices.ts";
import { getCustomerBillEntry } from "../../db/bills.ts";
import { conflict, invalid, notFound, unavailable } from "../refusal.ts";
import { FacturapiError } from "./facturapi_client.ts";
import { issueDueInvoices } from "./issue.ts";
import { invoicingOf } from "./settings.ts";

/** Filters of the admin's list. */
export interface InvoiceFilter {
  status?: StoredInvoice["status"] | null;
  kind?: StoredInvoice["kind"] | null;
  month?: string | null;
}

/** The latest invoices matching `f` (at most 500 read). */
export async function listInvoices(deps: Deps, f: InvoiceFilter = {}): Promise<StoredInvoice[]> {
  return (await recentInvoices(deps.kv, 500)).filter((i) =>
    (!f.status || i.status === f.status) && (!f.kind || i.kind === f.kind) &&
    (!f.month || i.month === f.month || new Date(i.created_at).toISOString().startsWith(f.month))
  );
}

/** Tries a failed invoice again, now; what became of it. */
export async function retryInvoice(deps: Deps, key: string): Promise<StoredInvoice> {
  const e = await getInvoiceEntry(deps.kv, key);
  if (!e) throw notFound("invoices.errors.not_found");
  if (e.value.status !== "failed") throw conflict("invoices.errors.not_failed");
  const ok = await putInvoice(deps.kv, e, {
    ...e.value,
    status: "pending",
    attempts: 0,
    next_at: deps.now(),
    updated_at: deps.now(),
  });
  if (!ok) throw conflict("invoices.errors.changed");
  await issueDueInvoices(deps);
  return (await getInvoiceEntry(deps.kv, key))!.value;
}

/**
 * Cancels a valid invoice with `motive` (c_Motivo 01–04; 01 names the replacing invoice by its
 * portal key or Facturapi id); the status follows Facturapi's answer (canceled, or pending
 * cancellation while the receiver is asked).
 */
export async function cancelInvoice(
  deps: Deps,
  key: string,
  motive: string,
  substitution: string | null,
): Promise<StoredInvoice> {
  if (!isCancelMotive(motive)) throw invalid({ motive: "invoices.errors.motive" });
  const e = await getInvoiceEntry(deps.kv, key);
  if (!e) throw notFound("invoices.errors.not_found");
  if (e.value.status !== "valid" || !e.value.facturapi_id) {
    throw conflict("invoices.errors.not_valid");
  }
  let sub: string | null = null;
  if (motive === "01") {
    const other = substitution ? await getInvoiceEntry(deps.kv, substitution) : null;
    sub = other?.value.facturapi_id ?? substitution?.trim() ?? null;
    if (!sub || sub === e.value.facturapi_id) {
      throw invalid({ substitution: "invoices.errors.substitution" });
    }
  }
  const client = invoicingOf(deps);
  if (!client) throw unavailable("invoices.errors.unavailable");
  let got;
  try {
    got = await client.cancelInvoice(e.value.facturapi_id, motive, sub);
  } catch (err) {
    if (err instanceof FacturapiError && err.refused) {
      throw invalid({ motive: "invoices.errors.refused" }, undefined, err.message);
    }
    throw unavailable("invoices.errors.unavailable", String(err));
  }
  const next: StoredInvoice = {
    ...e.value,
    status: got.status === "canceled" ? "canceled" : "pending_cancellation",
    cancellation: { motive, substitution: sub, at: deps.now() },
    updated_at: deps.now(),
  };
  if (!await putInvoice(deps.kv, e, next)) throw conflict("invoices.errors.changed");
  return next;
}

/** The invoice of a unit bill (named or global) or of a station bill, or null. */
export async function invoiceOfBill(
  deps: Deps,
  billId: number,
  owner = false,
): Promise<StoredInvoice | null> {
  const key = await invoiceKeyOfBill(deps.kv, billId, owner);
  return key ? (await getInvoiceEntry(deps.kv, key))?.value ?? null : null;
}

/**
 * The PDF or XML of invoice `key` for `u`: an admin any, a tenant or owner only their named
 * one; not found otherwise (or before Facturapi made it).
 */
export async function invoiceFile(
  deps: Deps,
  u: User,
  key: string,
  format: "pdf" | "xml",
): Promise<{ bytes: Uint8Array; filename: string; type: string }> {
  const e = await getInvoiceEntry(deps.kv, key);
  const inv = e?.value;
  const mine = inv && (u.role === "admin" || (inv.user_id === u.id && inv.kind !== "global"));
  if (!inv || !mine || !inv.facturapi_id) throw notFound("invoices.errors.not_found");
  const client = invoicingOf(deps);
  if (!client) throw unavailable("invoices.errors.unavailable");
  try {
    const bytes = await client.download(inv.facturapi_id, format);
    return {
      bytes,
      filename: `cfdi-${inv.key.replaceAll(":", "-")}.${format}`,
      type: format === "pdf" ? "application/pdf" : "application/xml",
    };
  } catch (err) {
    throw unavailable("invoices.errors.unavailable", String(err));
  }
}

/** Whether a station bill's owner invoice exists (for the owner's page). */
export async function ownerInvoiceOf(deps: Deps, customerBillId: number) {
  if (!await getCustomerBillEntry(deps.kv, customerBillId)) return null;
  return await invoiceOfBill(deps, customerBillId, true);
}
