/**
 * What a CFDI 4.0 says about a bill (issue 31), as Facturapi's `POST /v2/invoices` body: a
 * named income invoice of a paid unit bill, the monthly global invoice of the bills paid
 * without fiscal data, the owner's invoice of a station bill. Pure: amounts come in integer
 * cents and leave in currency units (at most 6 decimals for a unit price, as CFDI allows).
 *
 * SAT codes used (catCFDI, CFDI 4.0 catalogues), cited where each is used:
 * - `c_ClaveProdServ` 83101800 "Servicios de electricidad" for the energy and its charges;
 *   84111506 "Servicios de facturación" for the operator's commission and fee to an owner;
 *   01010101 "No existe en el catálogo" for a global invoice's lines (Anexo 20 guide, factura
 *   global: description "Venta", unit ACT);
 * - `c_ClaveUnidad` KWH "Kilowatt hora", E48 "Unidad de servicio", ACT "Actividad";
 * - `c_FormaPago` 01 "Efectivo", 03 "Transferencia electrónica de fondos";
 * - `c_MetodoPago` PUE "Pago en una sola exhibición" (the bill is paid when invoiced);
 * - `c_ObjetoImp` 01 "No objeto de impuesto" (a late fee: the bill charges no IVA on it),
 *   02 "Sí objeto de impuesto";
 * - `c_Periodicidad` 04 "Mensual" (Facturapi: `periodicity: "month"`), `c_Meses` 01–12;
 * - `c_Motivo` of a cancellation: 01–04 ({@link CANCEL_MOTIVES}).
 */
import type { CustomerBill, UnitBill } from "./bill.ts";
import type { PaymentChange } from "./payment.ts";
import { type FiscalData, PUBLIC_RFC } from "./fiscal.ts";

/** c_ClaveProdServ 83101800 "Servicios de electricidad". */
export const ELECTRICITY_KEY = "83101800";
/** c_ClaveProdServ 84111506 "Servicios de facturación". */
export const BILLING_SERVICE_KEY = "84111506";
/** c_ClaveProdServ 01010101, the key of every line of a global invoice (Anexo 20 guide). */
export const GLOBAL_KEY = "01010101";

/** A product of an item (Facturapi's `items[].product`). */
export interface CfdiProduct {
  description: string;
  product_key: string;
  unit_key: string;
  unit_name?: string;
  price: number;
  tax_included: boolean;
  /** c_ObjetoImp: "01" without taxes, "02" with them. */
  taxability: "01" | "02";
  taxes: { type: "IVA"; rate: number }[];
  sku?: string;
}

/** An item (Facturapi's `items[]`). */
export interface CfdiItem {
  quantity: number;
  product: CfdiProduct;
}

/** The receiver (Facturapi's `customer`). */
export interface CfdiCustomer {
  legal_name: string;
  tax_id: string;
  tax_system: string;
  address: { zip: string };
  email?: string;
}

/** Facturapi's invoice body, the fields the portal sends. */
export interface CfdiBody {
  type: "I";
  customer: CfdiCustomer;
  items: CfdiItem[];
  payment_form: string;
  payment_method: "PUE";
  use: string;
  currency: string;
  exchange?: number;
  external_id: string;
  idempotency_key: string;
  global?: { periodicity: "month"; months: string; year: number };
}

/** c_Motivo of a cancellation: 01 needs the replacing invoice's id. */
export const CANCEL_MOTIVES = ["01", "02", "03", "04"] as const;
/** A cancellation motive. */
export type CancelMotive = typeof CANCEL_MOTIVES[number];

/** Whether a value is a cancellation motive. */
export function isCancelMotive(v: unknown): v is CancelMotive {
  return (CANCEL_MOTIVES as readonly unknown[]).includes(v);
}

/** Cents as currency units. */
const units = (cents: number) => cents / 100;

/** c_FormaPago of how a bill was paid: 01 cash, 03 a transfer (SPEI through Openpay too). */
export function paymentFormOf(bill: Pick<UnitBill, "payment_history">): "01" | "03" {
  const paid = [...bill.payment_history].reverse().find((c: PaymentChange) => c.to === "paid");
  return paid?.method === "cash" ? "01" : "03";
}

/** The IVA of a bill as a rate (0.16 for 16 %), from its zone's percentage. */
export function ivaRate(bill: Pick<UnitBill, "zone_snapshot">): number {
  return (bill.zone_snapshot?.tax_percentage ?? 0) / 100;
}

/**
 * An item of `cents` for `kwh` kilowatt hours: unit price to 6 decimals such that the amount
 * (quantity × price, rounded to the cent) is the bill's; quantity 1 when no such price exists.
 */
function energyItem(description: string, cents: number, kwh: number, taxes: CfdiProduct["taxes"]) {
  const price = kwh > 0 ? Math.round((cents / 100 / kwh) * 1e6) / 1e6 : 0;
  const exact = kwh > 0 && Math.round(price * kwh * 100) === cents;
  return {
    quantity: exact ? kwh : 1,
    product: {
      description: exact ? description : `${description} (${kwh} kWh)`,
      product_key: ELECTRICITY_KEY,
      unit_key: exact ? "KWH" : "E48",
      price: exact ? price : units(cents),
      tax_included: false,
      taxability: taxes.length ? "02" : "01",
      taxes,
    },
  } satisfies CfdiItem;
}

/** A service item of `cents` (unit E48). */
function serviceItem(
  description: string,
  cents: number,
  taxes: CfdiProduct["taxes"],
  key = ELECTRICITY_KEY,
): CfdiItem {
  return {
    quantity: 1,
    product: {
      description,
      product_key: key,
      unit_key: "E48",
      price: units(cents),
      tax_included: false,
      taxability: taxes.length ? "02" : "01",
      taxes,
    },
  };
}

/** Texts of a named invoice's lines (in the invoice's language, Spanish). */
export const LINE_TEXTS = {
  energy: "Energía eléctrica",
  base: "Cargo base",
  fixed: "Cargo fijo",
  compensation: "Cargo por factor de potencia",
  late_fee: "Recargo por pago tardío",
  commission: "Comisión por administración",
  fee: "Cuota por unidad",
} as const;

/**
 * The items of a unit bill: energy (KWH), base tariff, fixed charge, power factor, each with
 * the bill's IVA rate (the bill's tax is that rate of their sum, which is what the CFDI's
 * total tax is), and the late fee without IVA (c_ObjetoImp 01), as the bill charges it.
 */
export function billItems(bill: UnitBill): CfdiItem[] {
  const rate = ivaRate(bill);
  const taxes = bill.tax_cost > 0 && rate > 0 ? [{ type: "IVA" as const, rate }] : [];
  const kwh = bill.calculation_details.billed_kwh ?? bill.energy_consumption;
  const fixed = bill.calculation_details.fixed_charge ?? 0;
  const items: CfdiItem[] = [];
  const period = bill.billing_month ?? bill.billing_period ?? "";
  if (bill.energy_cost > 0) {
    items.push(energyItem(`${LINE_TEXTS.energy} ${period}`, bill.energy_cost, kwh, taxes));
  }
  if (bill.base_tariff - fixed > 0) {
    items.push(serviceItem(LINE_TEXTS.base, bill.base_tariff - fixed, taxes));
  }
  if (fixed > 0) items.push(serviceItem(LINE_TEXTS.fixed, fixed, taxes));
  if (bill.compensation_cost > 0) {
    items.push(serviceItem(LINE_TEXTS.compensation, bill.compensation_cost, taxes));
  }
  if (bill.late_fee > 0) items.push(serviceItem(LINE_TEXTS.late_fee, bill.late_fee, []));
  return items;
}

/** The receiver of a named invoice. */
export function customerOf(f: FiscalData, email: string | null): CfdiCustomer {
  return {
    legal_name: f.legal_name,
    tax_id: f.rfc,
    tax_system: f.tax_system,
    address: { zip: f.zip },
    ...(email ? { email } : {}),
  };
}

/** The named income invoice of a paid unit bill. */
export function namedInvoiceBody(
  bill: UnitBill,
  fiscal: FiscalData,
  email: string | null,
  idempotencyKey: string,
): CfdiBody {
  return {
    type: "I",
    customer: customerOf(fiscal, email),
    items: billItems(bill),
    payment_form: paymentFormOf(bill),
    payment_method: "PUE",
    use: fiscal.use,
    currency: bill.currency,
    external_id: `bill-${bill.id}`,
    idempotency_key: idempotencyKey,
  };
}

/** The owner's invoice of a station bill: commission and fees with the bill's tax rate. */
export function ownerInvoiceBody(
  bill: CustomerBill,
  fiscal: FiscalData,
  email: string | null,
  idempotencyKey: string,
): CfdiBody {
  const rate = bill.calculation_details.tax_rate / 100;
  const taxes = bill.tax_amount > 0 && rate > 0 ? [{ type: "IVA" as const, rate }] : [];
  const period = bill.billing_month ?? bill.billing_period ?? "";
  const items: CfdiItem[] = [];
  if (bill.commission_amount > 0) {
    items.push(
      serviceItem(
        `${LINE_TEXTS.commission} ${period}`,
        bill.commission_amount,
        taxes,
        BILLING_SERVICE_KEY,
      ),
    );
  }
  if (bill.fee_amount > 0) {
    items.push(serviceItem(LINE_TEXTS.fee, bill.fee_amount, taxes, BILLING_SERVICE_KEY));
  }
  return {
    type: "I",
    customer: customerOf(fiscal, email),
    items,
    payment_form: "03",
    payment_method: "PUE",
    use: fiscal.use,
    currency: bill.currency,
    external_id: `station-bill-${bill.id}`,
    idempotency_key: idempotencyKey,
  };
}

/** A bill in a global invoice: its id, amount due (cents), IVA rate and payment form. */
export interface GlobalLine {
  bill_id: number;
  /** Amount paid without IVA and the IVA-free late fee, in cents. */
  base: number;
  late_fee: number;
  rate: number;
  form: "01" | "03";
}

/** A global invoice's line of a paid bill. */
export function globalLineOf(bill: UnitBill): GlobalLine {
  const rate = bill.tax_cost > 0 ? ivaRate(bill) : 0;
  return {
    bill_id: bill.id,
    base: bill.total_cost - bill.tax_cost,
    late_fee: bill.late_fee,
    rate,
    form: paymentFormOf(bill),
  };
}

/**
 * The global invoice of `month` (`YYYY-MM`): público en general (RFC XAXX010101000, regime 616
 * "Sin obligaciones fiscales", use S01 "Sin efectos fiscales", the issuer's ZIP), one line per
 * bill (`01010101`, unit ACT, "Venta", the bill's id as its number); the payment form is the
 * one of the largest amount (Anexo 20 guide, factura global).
 */
export function globalInvoiceBody(
  lines: readonly GlobalLine[],
  month: string,
  issuerZip: string,
  currency: string,
  idempotencyKey: string,
): CfdiBody {
  const largest = [...lines].sort((a, b) => b.base + b.late_fee - (a.base + a.late_fee))[0];
  const items: CfdiItem[] = [];
  for (const l of lines) {
    const taxes = l.rate > 0 ? [{ type: "IVA" as const, rate: l.rate }] : [];
    const product = (cents: number, t: CfdiProduct["taxes"]): CfdiProduct => ({
      description: "Venta",
      product_key: GLOBAL_KEY,
      unit_key: "ACT",
      price: units(cents),
      tax_included: false,
      taxability: t.length ? "02" : "01",
      taxes: t,
      sku: String(l.bill_id),
    });
    if (l.base > 0) items.push({ quantity: 1, product: product(l.base, taxes) });
    if (l.late_fee > 0) items.push({ quantity: 1, product: product(l.late_fee, []) });
  }
  return {
    type: "I",
    customer: {
      legal_name: "PUBLICO EN GENERAL",
      tax_id: PUBLIC_RFC,
      tax_system: "616",
      address: { zip: issuerZip },
    },
    items,
    payment_form: largest?.form ?? "03",
    payment_method: "PUE",
    use: "S01",
    currency,
    external_id: `global-${month}-${currency}`,
    idempotency_key: idempotencyKey,
    global: { periodicity: "month", months: month.slice(5, 7), year: Number(month.slice(0, 4)) },
  };
}

/**
 * The totals Facturapi computes for a body (what the CFDI will say): subtotal, IVA and total
 * in cents. Each item's amount is rounded to the cent; the IVA is summed unrounded and rounded
 * once, as the CFDI's total of transferred taxes.
 */
export function cfdiTotals(items: readonly CfdiItem[]): {
  subtotal: number;
  tax: number;
  total: number;
} {
  let subtotal = 0;
  let tax = 0;
  for (const it of items) {
    const amount = Math.round(it.quantity * it.product.price * 100);
    subtotal += amount;
    for (const t of it.product.taxes) tax += amount * t.rate;
  }
  const taxCents = Math.round(tax + 1e-9);
  return { subtotal, tax: taxCents, total: subtotal + taxCents };
}
