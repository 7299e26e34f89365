/**
 * SPEI charges counted by state, for the metrics (reads `["openpay_charges", id]`, the layout
 * in `db/payments.ts`): one pass over the charges at each scrape.
 */
import type { StoredCharge } from "./payments.ts";

/** How many charges are in each state (`in_progress`, `completed`, `cancelled`, …). */
export async function chargesByStatus(kv: Deno.Kv): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for await (const e of kv.list<StoredCharge>({ prefix: ["openpay_charges"] })) {
    const s = e.value.status;
    counts[s] = (counts[s] ?? 0) + 1;
  }
  return counts;
}
