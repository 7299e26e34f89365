/**
 * Tenants' profiles (`core/tenant_profile.ts`).
 *
 * Key layout: `["tenant_profile", userId]` → {@link TenantProfile} with `updated_at`.
 */
import type { TenantProfile } from "../core/tenant_profile.ts";

const key = (userId: number) => ["tenant_profile", userId];

/** The stored profile of `userId`, or null. */
export async function getTenantProfile(kv: Deno.Kv, userId: number): Promise<TenantProfile | null> {
  return (await kv.get<TenantProfile>(key(userId))).value;
}

/** Stores the profile of `userId`. */
export async function putTenantProfile(
  kv: Deno.Kv,
  userId: number,
  profile: TenantProfile,
  nowMs: number,
): Promise<void> {
  await kv.set(key(userId), { ...profile, updated_at: nowMs });
}
