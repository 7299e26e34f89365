/**
 * A tenant's profile (spec 001, entities): billing address, emergency contact and unit area
 * they keep, with their units and lease dates from the tenancies.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { emptyTenantProfile, type TenantProfile } from "../../core/tenant_profile.ts";
import { getTenantProfile, putTenantProfile } from "../../db/tenant_profiles.ts";
import { Refusal } from "../refusal.ts";

/** The caller's profile (empty fields when never saved). */
export async function tenantProfile(deps: Deps, user: User): Promise<TenantProfile> {
  const stored = await getTenantProfile(deps.kv, user.id);
  const empty = emptyTenantProfile();
  return stored
    ? {
      billing_address: { ...empty.billing_address, ...stored.billing_address },
      emergency_contact: { ...empty.emergency_contact, ...stored.emergency_contact },
      unit_area_m2: stored.unit_area_m2 ?? null,
    }
    : empty;
}

/** Saves the caller's profile; only a tenant has one. */
export async function saveTenantProfile(
  deps: Deps,
  user: User,
  profile: TenantProfile,
): Promise<void> {
  if (user.role !== "user") throw new Refusal("forbidden", "errors.forbidden", {});
  await putTenantProfile(deps.kv, user.id, profile, deps.now());
}
