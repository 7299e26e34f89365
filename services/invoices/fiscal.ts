/**
 * A tenant's or owner's fiscal data in Settings (issue 31): read, saved (checked by the route
 * against `core/fiscal.ts`), removed.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { FiscalData } from "../../core/fiscal.ts";
import { deleteFiscalData, getFiscalData, putFiscalData } from "../../db/fiscal.ts";
import { Refusal } from "../refusal.ts";

/** Roles that may keep fiscal data: tenants and owners. */
export function mayKeepFiscalData(u: Pick<User, "role">): boolean {
  return u.role === "user" || u.role === "customer";
}

/** The fiscal data of `userId`, or null. */
export function fiscalDataOf(deps: Deps, userId: number): Promise<FiscalData | null> {
  return getFiscalData(deps.kv, userId);
}

/** Stores the caller's fiscal data, checked by the route (`fiscalSchema`); tenants and owners. */
export async function saveFiscalData(deps: Deps, u: User, data: FiscalData): Promise<FiscalData> {
  if (!mayKeepFiscalData(u)) throw new Refusal("forbidden", "errors.forbidden");
  await putFiscalData(deps.kv, u.id, data, deps.now());
  return data;
}

/** Removes the caller's fiscal data. */
export async function removeFiscalData(deps: Deps, u: User): Promise<void> {
  await deleteFiscalData(deps.kv, u.id);
}
