/**
 * `deno task sweep`: the overdue sweep (services/billing/sweep.ts) as a scripted run. Unpaid
 * finalized bills past their due date become overdue, with the late fee added once and the
 * tenant told. Prints what it did (`--json` as JSON). Exits 0, or 2 for a bad configuration.
 * SPEI references past their validity expire in the same run (services/payments). The portal
 * runs the same sweeps on its own.
 */
import { printOut, runWithStores } from "./_deps.ts";
import { sweepOverdue } from "../services/billing/mod.ts";
import { reconcileCharges } from "../services/payments/mod.ts";

function main(): Promise<number> {
  return runWithStores(async (deps) => {
    const r = await sweepOverdue(deps);
    const p = await reconcileCharges(deps);
    if (Deno.args.includes("--json")) printOut(JSON.stringify({ ...r, payments: p }));
    else {
      printOut(
        `sweep of ${r.date}: ${r.overdue} bills now overdue, ${r.late_fees} late fees added`,
      );
      printOut(
        `payments: ${p.checked} open charges checked, ${p.paid} paid, ${p.expired} expired`,
      );
    }
    return 0;
  });
}

if (import.meta.main) Deno.exit(await main());
