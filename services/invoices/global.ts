/**
 * The monthly global invoice (issue 31): the bills paid in a month whose tenant had no fiscal
 * data, one line each, as one invoice to "público en general" per currency
 * (`deno task invoice-global [YYYY-MM]`, and the portal on the 1st for the month before). The
 * lines move into the invoice in the commit that creates it; a month asked for twice makes one
 * invoice. A tenant who adds fiscal data may still ask for a named invoice of a bill paid this
 * month while it is only a line.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import {
  createInvoiceFor,
  getInvoiceEntry,
  globalLines,
  invoiceKeyOfBill,
  moveLineToNamed,
  type StoredInvoice,
  takeGlobalLine,
} from "../../db/invoices.ts";
import { getUnitBill } from "../../db/bills.ts";
import { getFiscalData } from "../../db/fiscal.ts";
import { clockOf } from "../platform/clock.ts";
import { conflict, notFound } from "../refusal.ts";
import { issueDueInvoices, newInvoice, paidMonth } from "./issue.ts";

/** The month before `month` (`YYYY-MM`). */
export function monthBefore(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** Creates and issues the global invoices of `month`; what became of them. */
export async function issueGlobalInvoices(deps: Deps, month: string): Promise<StoredInvoice[]> {
  const lines = await globalLines(deps.kv, month);
  const byCurrency = new Map<string, typeof lines>();
  for (const l of lines) {
    const list = byCurrency.get(l.value.currency) ?? [];
    list.push(l);
    byCurrency.set(l.value.currency, list);
  }
  for (const [currency, list] of byCurrency) {
    const key = `global:${month}:${currency}`;
    if (await getInvoiceEntry(deps.kv, key)) continue; // issued before: later lines wait
    await createInvoiceFor(
      deps.kv,
      null,
      newInvoice(deps, {
        key,
        kind: "global",
        bill_id: null,
        user_id: null,
        currency,
        month,
        lines: list.map((l) => l.value),
      }),
    );
  }
  await issueDueInvoices(deps);
  const out: StoredInvoice[] = [];
  for (const c of byCurrency.keys()) {
    const e = await getInvoiceEntry(deps.kv, `global:${month}:${c}`);
    if (e) out.push(e.value);
  }
  return out;
}

/** The invoice errors a tenant may read (locale keys). */
export const INVOICE_ERRORS = {
  notFound: "invoices.errors.not_found",
  noFiscal: "invoices.errors.no_fiscal",
  inGlobal: "invoices.errors.in_global",
  notThisMonth: "invoices.errors.not_this_month",
  exists: "invoices.errors.exists",
} as const;

/**
 * A tenant's named invoice of their bill paid this month that is only a global line; refused
 * with the reason otherwise (no fiscal data, paid in an earlier month, in an issued global
 * invoice, invoiced already).
 */
export async function requestNamedInvoice(
  deps: Deps,
  u: User,
  billId: number,
): Promise<StoredInvoice> {
  const bill = await getUnitBill(deps.kv, billId);
  if (!bill || bill.tenant_id !== u.id || bill.payment_status !== "paid") {
    throw notFound(INVOICE_ERRORS.notFound);
  }
  if (!await getFiscalData(deps.kv, u.id)) throw conflict(INVOICE_ERRORS.noFiscal);
  const existing = await invoiceKeyOfBill(deps.kv, billId);
  if (existing?.startsWith("global:")) throw conflict(INVOICE_ERRORS.inGlobal);
  if (existing) throw conflict(INVOICE_ERRORS.exists);
  const month = paidMonth(bill);
  if (month !== clockOf(deps).month()) throw conflict(INVOICE_ERRORS.notThisMonth);
  const line = await takeGlobalLine(deps.kv, month, billId);
  if (!line) throw conflict(INVOICE_ERRORS.exists);
  const inv = newInvoice(deps, {
    key: `bill:${bill.id}`,
    kind: "named",
    bill_id: bill.id,
    user_id: u.id,
    currency: bill.currency,
  });
  if (!await moveLineToNamed(deps.kv, line, inv)) throw conflict(INVOICE_ERRORS.exists);
  await issueDueInvoices(deps);
  return (await getInvoiceEntry(deps.kv, inv.key))!.value;
}
