/**
 * Finances (issues 13 and 14): one aggregation of the finalized bills and their payments,
 * shared by the admin's finances (`admin.ts`) and the owner's billing overview (`owner.ts`).
 * The rules are core/finances.ts's; the bills' facts are read through db/bill_facts.ts.
 */
export { adminOverview, bimonthlyData, type RevenueRow, zonesPerformance } from "./admin.ts";
export {
  ownerBillingType,
  type OwnerOverview,
  ownerOverview,
  type OwnerPeriodBills,
  ownerPeriodBills,
  ownerYearBills,
  stationOwnerProfit,
} from "./owner.ts";
export { type OwnerFigures, type OwnerFinances, ownerFinances } from "./owner_figures.ts";
export type {
  BillingBlocks,
  BlockFigures,
  FinanceOverview,
  OwnerTotals,
} from "../../core/finances.ts";
