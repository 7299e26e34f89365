/**
 * A tenant's or owner's fiscal data in Settings (issue 31): read, saved after the checks of
 * `core/fiscal.ts` (a refusal names the fields, in locale keys), removed.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { type FiscalData, fiscalSchema } from "../../core/fiscal.ts";
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

/** Checks and stores the caller's fiscal data; a refusal (invalid, with fields) otherwise. */
export async function saveFiscalData(deps: Deps, u: User, form: unknown): Promise<FiscalData> {
  if (!mayKeepFiscalData(u)) throw new Refusal("forbidden", "errors.forbidden");
  const res = fiscalSchema.safeParse(form);
  if (!res.success) {
    const fields: Record<string, string> = {};
    for (const i of res.error.issues) {
      const k = String(i.path[0] ?? "_");
      fields[k] ??= /^[a-z_]+(\.[a-z0-9_]+)+$/.test(i.message) ? i.message : "validation.invalid";
    }
    throw new Refusal("invalid", "fiscal.errors.invalid", fields);
  }
  await putFiscalData(deps.kv, u.id, res.data, deps.now());
  return res.data;
}

/** Removes the caller's fiscal data. */
export async function removeFiscalData(deps: Deps, u: User): Promise<void> {
  await deleteFiscalData(deps.kv, u.id);
}
