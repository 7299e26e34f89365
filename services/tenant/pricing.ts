/**
 * The tenant's pricing (spec 001 section 2, "Tenant pricing"): the zone of their units' station
 * and the devices assigned to them. States: no devices, no zone, loaded.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { ZoneView } from "../zones.ts";
import { type TenantUnit, tenantUnits } from "./units.ts";
import { ZoneCache } from "./zone.ts";

/** What the pricing page shows. */
export type TenantPricing =
  | { state: "no_devices" }
  | { state: "no_zone"; units: TenantUnit[] }
  | { state: "ready"; zone: ZoneView; units: TenantUnit[] };

/** The zone of the caller's first unit that has one, and their units. */
export async function tenantPricing(deps: Deps, user: User): Promise<TenantPricing> {
  const units = await tenantUnits(deps, user);
  if (units.length === 0) return { state: "no_devices" };
  const zones = new ZoneCache(deps);
  for (const u of units) {
    const zone = await zones.view(u);
    if (zone) return { state: "ready", zone, units };
  }
  return { state: "no_zone", units };
}
