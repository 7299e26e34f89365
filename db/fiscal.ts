/**
 * Taxpayers' fiscal data (`core/fiscal.ts`, issue 31).
 *
 * Key layout: `["fiscal_data", userId]` → {@link FiscalData} with `updated_at`. A write moves the
 * invoices' revision (what a paid bill offers depends on it: a named invoice or the request).
 */
import type { FiscalData } from "../core/fiscal.ts";
import { INVOICES_REVISION } from "./invoices.ts";

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
  await kv.atomic().set(key(userId), { ...data, updated_at: nowMs }).sum(INVOICES_REVISION, 1n)
    .commit();
}

/** Removes the fiscal data of `userId` (later payments go into the global invoice). */
export async function deleteFiscalData(kv: Deno.Kv, userId: number): Promise<void> {
  await kv.atomic().delete(key(userId)).sum(INVOICES_REVISION, 1n).commit();
}
