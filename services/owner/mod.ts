/**
 * Owner (customer) use cases (spec 001 section 2, customer screens): the dashboard, an
 * installation with its units, a unit's live values and reliability, and the invoice. Every
 * answer covers only the caller's own stations.
 */
export { OWNER_CHARTS, type OwnerChart, type OwnerDashboard, ownerDashboard } from "./dashboard.ts";
export { type Installation, installation, type InstallationUnit } from "./installation.ts";
export { type OwnerUnit, ownerUnit } from "./unit.ts";
export { INVOICE_LANGUAGES, ownerInvoice } from "./invoice.ts";
