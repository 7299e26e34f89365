/**
 * Taxpayers' fiscal data (`core/fiscal.ts`, issue 31).
 *
 * Key layout: `["fiscal_data", userId]` → {@link FiscalData} with `updated_at`.
 */
import type { FiscalData } from "../core/fiscal.ts";

const key = (userId: number) => ["fiscal_data", userId];

/** The fiscal data of `userId`, or null when none was given. */
export async function getFiscalData(kv: Deno.Kv, userId: number): Promise<FiscalData | null> {
  const v = (await kv.get<FiscalData & { updated_at: number }>(key(userId))).value;
  if (!v) return null;
  return { rfc: v.rfc, legal_name: v.legal_name, tax_system: v.tax_system, zip: v.zip, use: v.use };
}

/** Stores the fiscal data of `userId`. */
export async function putFiscalData(
  kv: Deno.Kv,
  userId: number,
  data: FiscalData,
  nowMs: number,
): Promise<void> {
  await kv.set(key(userId), { ...data, updated_at: nowMs });
}

/** Removes the fiscal data of `userId` (later payments go into the global invoice). */
export async function deleteFiscalData(kv: Deno.Kv, userId: number): Promise<void> {
  await kv.delete(key(userId));
}
