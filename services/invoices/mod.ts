/** CFDI invoices through Facturapi (issue 31). */
export { fiscalDataOf, mayKeepFiscalData, removeFiscalData, saveFiscalData } from "./fiscal.ts";
export { handleInvoiceEvents, invoicePass, issueDueInvoices } from "./issue.ts";
export { INVOICE_ERRORS, issueGlobalInvoices, monthBefore, requestNamedInvoice } from "./global.ts";
export {
  cancelInvoice,
  invoiceFile,
  type InvoiceFilter,
  invoiceOfBill,
  listInvoices,
  ownerInvoiceOf,
  retryInvoice,
} from "./manage.ts";
export { startInvoiceWorker } from "./worker.ts";
export { startLocalFacturapi } from "./local.ts";
export { invoicingOf } from "./settings.ts";
export type { StoredInvoice } from "../../db/invoices.ts";
export { issuerOf, type IssuerView } from "./issuer.ts";
