/**
 * Billing use cases (spec 001 sections 4, 5, 7; issue 9): billing runs (`run.ts`, writing in
 * `station.ts`), estimation levels (`estimation.ts`), recalculation (`recalculation.ts`), who
 * sees which bill and the admin's actions on bills (`bills.ts`), the overdue sweep
 * (`sweep.ts`) and the bill notices (`notices.ts`). Routes and scripts import from here.
 */
export {
  type BillingProgress,
  type BillingResult,
  previousPeriods,
  runBilling,
  runBillingAll,
} from "./run.ts";
export { periodBounds } from "../../core/periods.ts";
export { RECALC_ERRORS, RECALC_METHODS, recalculateBill } from "./recalculation.ts";
export {
  customerBillsFor,
  deleteCustomerBillById,
  deleteUnitBillById,
  notifyBill,
  recordPayment,
  unitBillsFor,
} from "./bills.ts";
export { startOverdueSweep, sweepOverdue } from "./sweep.ts";
export {
  billYears,
  type StationBillRow,
  stationBillRows,
  UNIT_BILL_SORTS,
  unitBillPage,
  type UnitBillRow,
  unitBillRow,
  unitBillRows,
  zoneChoices,
} from "./lists.ts";
