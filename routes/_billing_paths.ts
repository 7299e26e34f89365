/** The admin's billing pages (spec 001 section 2): their paths and what each lists. */
import type { PeriodKind } from "../core/periods.ts";

/** Unit bills or station bills. */
type Mode = "units" | "stations";

/** A billing page: its path, what it lists, the billing type it is limited to, its title key. */
export interface BillingPath {
  base: string;
  mode: Mode;
  kind?: PeriodKind;
  title?: string;
}

/** Every admin billing page (spec 001 section 2). */
export const BILLING_PATHS: readonly BillingPath[] = [
  { base: "/admin/units-billing", mode: "units" },
  { base: "/admin/stations-billing", mode: "stations" },
  { base: "/admin/billing", mode: "units", kind: "monthly", title: "monthly_units" },
  { base: "/admin/bimester-billing", mode: "units", kind: "bimonthly", title: "bimonthly_units" },
  {
    base: "/admin/customer-billing",
    mode: "stations",
    kind: "monthly",
    title: "monthly_stations",
  },
  {
    base: "/admin/bimester-customer-billing",
    mode: "stations",
    kind: "bimonthly",
    title: "bimonthly_stations",
  },
];
