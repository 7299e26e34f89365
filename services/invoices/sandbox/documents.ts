/**
 * The sandbox's documents of an invoice: a one-page PDF and an XML shaped like a CFDI 4.0,
 * both marked "sin validez fiscal" (test mode: nothing here is stamped by the SAT).
 */
import { PdfWriter } from "../../reports/pdf/writer.ts";

/** The words every sandbox document carries. */
export const NOT_VALID = "sin validez fiscal";

type Inv = Record<string, unknown>;
type Item = {
  quantity: number;
  product: { description: string; price: number; product_key: string; unit_key: string };
};

/** The PDF of an invoice. */
export async function sandboxPdf(inv: Inv): Promise<Uint8Array> {
  const c = inv.customer as { legal_name: string; tax_id: string };
  const pdf = await PdfWriter.create(`CFDI ${inv.uuid}`, "Facturapi sandbox");
  pdf.heading(`CFDI ${inv.series}-${inv.folio_number} (${NOT_VALID})`, 16);
  pdf.line("UUID", String(inv.uuid));
  pdf.line("Receptor", `${c.legal_name} (${c.tax_id})`);
  pdf.line("Uso CFDI", String(inv.use));
  pdf.line("Forma de pago", String(inv.payment_form));
  pdf.line("Método de pago", String(inv.payment_method));
  pdf.gap();
  pdf.table(
    [{ header: "Clave", width: 70 }, { header: "Descripción", width: 250 }, {
      header: "Cantidad",
      width: 70,
    }, { header: "Precio", width: 90 }],
    (inv.items as Item[]).map((it) => [
      it.product.product_key,
      it.product.description,
      `${it.quantity} ${it.product.unit_key}`,
      it.product.price.toFixed(2),
    ]),
  );
  pdf.gap();
  pdf.line("Subtotal", Number(inv.subtotal).toFixed(2));
  pdf.line("Total", `${Number(inv.total).toFixed(2)} ${inv.currency}`, true);
  pdf.line("Estado", String(inv.status));
  pdf.paragraph(`Documento de prueba, ${NOT_VALID}.`);
  return await pdf.save();
}

const esc = (s: unknown) =>
  String(s).replace(
    /[<>&"]/g,
    (ch) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[ch]!,
  );

/** The XML of an invoice. */
export function sandboxXml(inv: Inv): string {
  const c = inv.customer as {
    legal_name: string;
    tax_id: string;
    tax_system: string;
    address: { zip: string };
  };
  const items = (inv.items as Item[]).map((it) =>
    `<cfdi:Concepto ClaveProdServ="${
      esc(it.product.product_key)
    }" Cantidad="${it.quantity}" ClaveUnidad="${esc(it.product.unit_key)}" Descripcion="${
      esc(it.product.description)
    }" ValorUnitario="${it.product.price}"/>`
  ).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${NOT_VALID} -->\n` +
    `<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="${
      esc(inv.series)
    }" Folio="${inv.folio_number}" FormaPago="${esc(inv.payment_form)}" MetodoPago="${
      esc(inv.payment_method)
    }" Moneda="${
      esc(inv.currency)
    }" SubTotal="${inv.subtotal}" Total="${inv.total}" TipoDeComprobante="I">` +
    `<cfdi:Receptor Rfc="${esc(c.tax_id)}" Nombre="${esc(c.legal_name)}" RegimenFiscalReceptor="${
      esc(c.tax_system)
    }" DomicilioFiscalReceptor="${esc(c.address.zip)}" UsoCFDI="${esc(inv.use)}"/>` +
    `<cfdi:Conceptos>${items}</cfdi:Conceptos>` +
    // The stamp's complement (TimbreFiscalDigital 1.1) names the invoice's fiscal folio.
    `<cfdi:Complemento><tfd:TimbreFiscalDigital ` +
    `xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="${
      esc(inv.uuid)
    }" FechaTimbrado="${esc(String(inv.created_at).slice(0, 19))}"/></cfdi:Complemento>` +
    `</cfdi:Comprobante>\n`;
}
