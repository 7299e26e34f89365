/**
 * The tenant billing overview (spec 001 sections 3 and 7): billing type and currency of their
 * zone with their unit count, the year's totals and one row per period, and the bills of a
 * period. Amounts in cents here; the API converts them.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { PeriodKind } from "../../core/periods.ts";
import { tenantUnits } from "./units.ts";
import { ZoneCache } from "./zone.ts";
import { type TenantBillRow, tenantBillRows } from "./bills.ts";

/** Billing type, currency and unit count of the caller. */
interface TenantBillingType {
  billing_type: PeriodKind;
  currency: string;
  sensors_count: number;
}

/** The caller's billing type (their first zoned unit's; monthly and MXN by default). */
export async function tenantBillingType(deps: Deps, user: User): Promise<TenantBillingType> {
  const units = await tenantUnits(deps, user);
  const zones = new ZoneCache(deps);
  for (const u of units) {
    const z = await zones.view(u);
    if (z) {
      return { billing_type: z.billing_type, currency: z.currency, sensors_count: units.length };
    }
  }
  return { billing_type: "monthly", currency: "MXN", sensors_count: units.length };
}

/** A period's totals (cents, kWh). */
interface TenantPeriodTotals {
  period: string;
  total_cost: number;
  energy_consumption: number;
  bill_count: number;
}

/** The year of the caller's bills. */
export interface TenantOverview extends TenantBillingType {
  year: number;
  yearly_overview: {
    total_invoices: number;
    total_bills: number;
    total_cost: number;
    currency: string;
  };
  /** Periods with bills, oldest first. */
  period_data: TenantPeriodTotals[];
}

/** The caller's bills of `year`, totalled per period. */
export async function tenantOverview(
  deps: Deps,
  user: User,
  year: number,
): Promise<TenantOverview> {
  const type = await tenantBillingType(deps, user);
  const rows = await tenantBillRows(deps, user, { year });
  const periods = new Map<string, TenantPeriodTotals>();
  for (const r of rows) {
    const p = periods.get(r.period) ??
      { period: r.period, total_cost: 0, energy_consumption: 0, bill_count: 0 };
    p.total_cost += r.bill.total_cost;
    p.energy_consumption = Math.round((p.energy_consumption + r.bill.energy_consumption) * 1000) /
      1000;
    p.bill_count += 1;
    periods.set(r.period, p);
  }
  const total = rows.reduce((s, r) => s + r.bill.total_cost, 0);
  return {
    ...type,
    year,
    yearly_overview: {
      total_invoices: rows.length,
      total_bills: rows.length,
      total_cost: total,
      currency: rows[0]?.bill.currency ?? type.currency,
    },
    period_data: [...periods.values()].sort((a, b) => a.period.localeCompare(b.period)),
  };
}

/** The caller's bills of one period. */
export function tenantPeriodBills(
  deps: Deps,
  user: User,
  period: string,
): Promise<TenantBillRow[]> {
  return tenantBillRows(deps, user, { period });
}

/**
 * The period the billing page opens on when none is asked for: the newest period holding an
 * unpaid bill of the caller, else their newest bill's period (of `year` when given); null with
 * no bill, so the page falls back to the current period.
 */
export async function tenantLandingPeriod(
  deps: Deps,
  user: User,
  year?: number,
): Promise<string | null> {
  const rows = await tenantBillRows(deps, user, { year });
  return (rows.find((r) => r.bill.payment_status !== "paid") ?? rows[0])?.period ?? null;
}
