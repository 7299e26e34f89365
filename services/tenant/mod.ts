/**
 * Tenant use cases (spec 001 section 2, tenant screens; section 7, tenant billing overview):
 * their units, dashboard, consumption with insights and forecast, pricing, bills and reports.
 * Every answer covers only the caller's own units and bills.
 */
export { type TenantUnit, UNIT_NOT_FOUND } from "./units.ts";
export { tenantLeases } from "./leases.ts";
export {
  DASHBOARD_CHARTS,
  type DashboardChart,
  type TenantDashboard,
  tenantDashboard,
} from "./dashboard.ts";
export {
  type ConsumptionOverview,
  consumptionOverview,
  type UnitDetail,
  unitDetail,
  unitPeriodEstimate,
} from "./consumption.ts";
export { type TenantPricing, tenantPricing } from "./pricing.ts";
export { type TenantBillRow, tenantBillRows } from "./bills.ts";
export {
  tenantBillingType,
  tenantLandingPeriod,
  type TenantOverview,
  tenantOverview,
  tenantPeriodBills,
} from "./overview.ts";
export { periodReport, tenantReport } from "./reports.ts";
export { saveTenantProfile, tenantProfile } from "./profile.ts";
