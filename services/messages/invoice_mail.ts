/**
 * The words and files of an issued invoice's mail (issue 31): which bill it invoices (the unit
 * and period of a tenant's bill, the station and period of an owner's), its total, and its PDF
 * and XML read from Facturapi when the mail is sent (a download that fails is tried again with
 * the message). Null when the invoice is gone or was never made.
 */
import type { Deps } from "../deps.ts";
import type { Formatter } from "../../core/format.ts";
import type { Translate } from "../platform/i18n.ts";
import { periodOfBill } from "../../core/bill.ts";
import { periodLabel } from "../../core/periods.ts";
import { getInvoiceEntry } from "../../db/invoices.ts";
import { getCustomerBillEntry, getUnitBill } from "../../db/bills.ts";
import { getDevice } from "../../db/devices.ts";
import { invoicingOf } from "../invoices/settings.ts";

/** An invoice mail's values, link, whether it is a test invoice, and its two files. */
export interface InvoiceMail {
  values: Record<string, string>;
  link: string;
  test: boolean;
  files: { filename: string; content: Uint8Array; contentType: string }[];
}

/** The mail of invoice `key`, or null. */
export async function invoiceMailOf(
  deps: Deps,
  key: string,
  t: Translate,
  f: Formatter,
): Promise<InvoiceMail | null> {
  const inv = (await getInvoiceEntry(deps.kv, key))?.value;
  if (!inv || !inv.facturapi_id || inv.bill_id === null || inv.kind === "global") return null;
  let what: string, period: string, link: string;
  if (inv.kind === "owner") {
    const bill = (await getCustomerBillEntry(deps.kv, inv.bill_id))?.value;
    if (!bill) return null;
    period = periodOfBill(bill);
    what = (await getDevice(deps.kv, bill.station_id))?.name ?? String(bill.station_id);
    link = "/customer/billing";
  } else {
    const bill = await getUnitBill(deps.kv, inv.bill_id);
    if (!bill) return null;
    period = periodOfBill(bill);
    const station = await getDevice(deps.kv, bill.station_id);
    const unit = station?.config.station?.units.find((u) => u.id === bill.unit_id)?.name ||
      bill.unit_id;
    what = station ? `${unit} (${station.name})` : unit;
    link = `/user/billing?period=${encodeURIComponent(period)}`;
  }
  const client = invoicingOf(deps);
  if (!client) throw new Error("invoicing is not configured");
  const [pdf, xml] = await Promise.all([
    client.download(inv.facturapi_id, "pdf"),
    client.download(inv.facturapi_id, "xml"),
  ]);
  const name = `cfdi-${inv.key.replaceAll(":", "-")}`;
  return {
    values: {
      what,
      period: periodLabel(t, period, true),
      amount: inv.total === null ? "" : f.money(inv.total, inv.currency),
      uuid: inv.uuid ?? "",
    },
    link,
    test: inv.test,
    files: [
      { filename: `${name}.pdf`, content: pdf, contentType: "application/pdf" },
      { filename: `${name}.xml`, content: xml, contentType: "application/xml" },
    ],
  };
}
