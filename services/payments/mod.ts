/**
 * SPEI payments through Openpay (issue 12; spec 001 sections 2, 3, 7): the REST client
 * (`openpay_client.ts`), generating a reference (`references.ts`), the webhook (`webhooks.ts`),
 * what a charge's state means for its bill (`settle.ts`), reconciliation (`reconciliation.ts`),
 * the tenant's view (`tenant.ts`), the local sandbox (`sandbox/`), the test-mode transfer
 * (`simulate.ts`) and receipt (`receipt.ts`), charges the processor no longer knows
 * (`forgotten.ts`). Routes, scripts and main import from here.
 */
export { basicAuth, openpayClient, openpayConfigured } from "./openpay_client.ts";
export { PAYMENT_ERRORS, referenceFor } from "./references.ts";
export { receiveWebhook, webhooksIdle, webhooksStop } from "./webhooks.ts";
export {
  CHARGE_SORTS,
  type ChargeRow,
  type PaymentsOverview,
  paymentsOverview,
  reconcileCharges,
  type ReconcileResult,
} from "./reconciliation.ts";
export {
  type PaymentsSummary,
  paymentsSummary,
  paymentsTestMode,
  type TenantPayment,
  tenantPayment,
} from "./tenant.ts";
export { startReconciliation } from "./reconcile_timer.ts";
export { simulateTransfer } from "./simulate.ts";
export { speiReceipt } from "./receipt.ts";
export { type OpenpaySandbox, startOpenpaySandbox } from "./sandbox/mod.ts";
export { startLocalOpenpay } from "./sandbox/local.ts";
