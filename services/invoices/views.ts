/**
 * What the bill lists show of an invoice (issue 31): its status as a reader reads it (an
 * invoice being sent is still pending; a bill in a global invoice says so), whether its PDF and
 * XML are offered to that reader (an admin any made invoice, a tenant or owner their own named
 * one), and for a tenant's paid bill without one, whether they may ask for it now or must add
 * their fiscal data first.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { UnitBill } from "../../core/bill.ts";
import { globalLines, invoicesOfBills, type StoredInvoice } from "../../db/invoices.ts";
import { getFiscalData } from "../../db/fiscal.ts";
import { clockOf } from "../platform/clock.ts";
import { NO_EXCHANGE_RATE, paidMonth } from "./issue.ts";

/** An invoice's status as the lists show it. */
export type InvoiceShownStatus =
  | "pending"
  | "valid"
  | "failed"
  | "pending_cancellation"
  | "canceled"
  | "in_global";

/** An invoice as one reader sees it in a bill list. */
export interface InvoiceView {
  key: string;
  status: InvoiceShownStatus;
  /** The PDF and XML are offered (Facturapi made it and the reader may read it). */
  files: boolean;
  /** A test invoice ("sin validez fiscal"). */
  test: boolean;
  /** Failed for a reason the receiver's fiscal data may fix (not a missing exchange rate). */
  fixable: boolean;
}

/** What a tenant's paid bill offers about its invoice. */
export interface TenantInvoice {
  invoice: InvoiceView | null;
  /**
   * Without an invoice: `request` (a button: paid this month, only a global line, fiscal data
   * kept) or `no_fiscal` (the same without fiscal data: a link to Settings); null otherwise.
   */
  offer: "request" | "no_fiscal" | null;
}

/** The view of `inv` for `reader`. */
export function viewOf(inv: StoredInvoice, reader: Pick<User, "id" | "role">): InvoiceView {
  const own = reader.role === "admin" || (inv.kind !== "global" && inv.user_id === reader.id);
  const status: InvoiceShownStatus = inv.kind === "global" && reader.role !== "admin"
    ? "in_global"
    : inv.status === "issuing"
    ? "pending"
    : inv.status;
  const fixable = inv.status === "failed" && !inv.error?.startsWith(NO_EXCHANGE_RATE);
  return { key: inv.key, status, files: own && inv.facturapi_id !== null, test: inv.test, fixable };
}

/** The invoices of unit bills (or station bills with `owner`) `ids` as `reader` sees them. */
export async function invoiceViews(
  deps: Deps,
  reader: Pick<User, "id" | "role">,
  ids: readonly number[],
  owner = false,
): Promise<Map<number, InvoiceView>> {
  const out = new Map<number, InvoiceView>();
  for (const [id, inv] of await invoicesOfBills(deps.kv, ids, owner)) {
    if (reader.role !== "admin" && inv.kind !== "global" && inv.user_id !== reader.id) continue;
    out.set(id, viewOf(inv, reader));
  }
  return out;
}

/** What each of a tenant's paid `bills` shows of its invoice, by bill id. */
export async function tenantInvoices(
  deps: Deps,
  u: User,
  bills: readonly UnitBill[],
): Promise<Map<number, TenantInvoice>> {
  const paid = bills.filter((b) => b.payment_status === "paid" && b.tenant_id === u.id);
  const out = new Map<number, TenantInvoice>();
  if (paid.length === 0) return out;
  const views = await invoiceViews(deps, u, paid.map((b) => b.id));
  const month = clockOf(deps).month();
  const waiting = new Set(
    paid.some((b) => !views.has(b.id) && paidMonth(b) === month)
      ? (await globalLines(deps.kv, month)).map((l) => l.value.bill_id)
      : [],
  );
  const fiscal = waiting.size > 0 && await getFiscalData(deps.kv, u.id) !== null;
  for (const b of paid) {
    const invoice = views.get(b.id) ?? null;
    const offer = invoice || !waiting.has(b.id) ? null : fiscal ? "request" : "no_fiscal";
    out.set(b.id, { invoice, offer });
  }
  return out;
}
