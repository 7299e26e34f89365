/**
 * The customer (station) bill report as PDF, the owner's invoice: its number, issue and due
 * dates, station, customer, period, the unit bills of the period with their payment state,
 * what the tenants were billed and what they paid so far, commission, fee, tax and total owed
 * to the provider, and the profits (spec 001 section 1: provider profit = commission + fees;
 * customer profit = tenant bills − commission − fees − taxes, and the part already paid).
 */
import type { Language } from "../../../core/roles.ts";
import type { StoredDevice } from "../../../core/devices.ts";
import type { StoredCustomerBill, StoredUnitBill } from "../../../db/bills.ts";
import type { Translate } from "../../platform/i18n.ts";
import { formatter } from "../../../core/format.ts";
import { openReport } from "./report_head.ts";
import { settledByPayment } from "../../../core/payment.ts";

/** What {@link renderCustomerPdf} draws. */
interface CustomerPdfInput {
  t: Translate;
  lang: Language;
  portal: string;
  station: StoredDevice;
  customer: string | null;
  bill: StoredCustomerBill;
  units: StoredUnitBill[];
  /** Tenant names by id. */
  tenants: Map<number, string>;
  /** The invoice's number, issue and due dates (`YYYY-MM-DD`); null for a draft. */
  invoice: { number: string; issued: string; due: string } | null;
}

/** Draws the customer report; the PDF bytes. */
export async function renderCustomerPdf(input: CustomerPdfInput): Promise<Uint8Array> {
  const { lang, bill } = input;
  const { w, P, money } = await openReport(input, "customer_title");
  w.line(P("customer"), input.customer ?? P("no_customer"));
  if (input.invoice) {
    w.line(P("invoice_number"), input.invoice.number);
    w.line(P("issued"), input.invoice.issued);
    w.line(P("due_date"), input.invoice.due);
  } else w.line(P("invoice_number"), P("draft"));

  const unitName = (id: string) =>
    input.station.config.station?.units.find((u) => u.id === id)?.name || id;
  w.heading(P("unit_bills"));
  w.table(
    [
      { header: P("unit"), width: 3 },
      { header: P("tenant"), width: 3 },
      { header: "kWh", width: 2, align: "right" },
      { header: P("energy_cost"), width: 3, align: "right" },
      { header: P("total"), width: 3, align: "right" },
      { header: P("payment_status"), width: 3 },
    ],
    input.units.map((b) => [
      unitName(b.unit_id),
      b.tenant_id === null ? P("no_tenant") : input.tenants.get(b.tenant_id) ?? P("no_tenant"),
      formatter(lang).number(b.energy_consumption),
      money(b.energy_cost),
      money(b.total_cost),
      input.t(`payments.status.${b.payment_status}`),
    ]),
  );
  // Billed is what the tenants owe; paid only what a payment settled ("nothing due" is not).
  const billed = input.units.reduce((s, b) => s + b.total_cost, 0);
  const paid = input.units.filter(settledByPayment).reduce((s, b) => s + b.total_cost, 0);
  w.line(P("energy"), `${formatter(lang).number(bill.energy_consumption)} kWh`);
  w.line(P("tenant_billed"), money(billed), true);
  w.line(P("tenant_paid"), money(paid));
  w.line(P("tenant_pending"), money(billed - paid));

  const d = bill.calculation_details;
  w.heading(P("customer_billing"));
  w.line(P("commission_base"), money(d.commission_base));
  w.line(
    P("commission", { rate: formatter(lang).number(d.commission_rate, 1) }),
    money(bill.commission_amount),
  );
  w.line(
    P("fee", { count: d.unit_count, fee: money(d.fee_per_unit) }),
    money(bill.fee_amount),
  );
  w.line(P("tax_rate", { rate: formatter(lang).number(d.tax_rate, 1) }), money(bill.tax_amount));
  w.line(P("total_amount"), money(bill.total_amount), true);
  w.line(P("currency"), bill.currency);

  w.heading(P("profit"));
  w.line(P("provider_profit"), money(bill.commission_amount + bill.fee_amount), true);
  w.line(P("customer_profit_billed"), money(billed - bill.total_amount), true);
  w.gap(10);
  w.paragraph(P("generated", { portal: input.portal }), 8);
  return w.save();
}
