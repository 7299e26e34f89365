/**
 * `deno task sweep`: the overdue sweep (services/billing/sweep.ts) as a scripted run. Unpaid
 * finalized bills past their due date become overdue, with the late fee added once and the
 * tenant told. Prints what it did (`--json` as JSON). Exits 0, or 2 for a bad configuration.
 * The portal runs the same sweep every hour on its own.
 */
import { createLogger } from "../services/platform/log.ts";
import { openScriptDeps, scriptConfig } from "./_deps.ts";
import { sweepOverdue } from "../services/billing/mod.ts";

async function main(): Promise<number> {
  const enc = new TextEncoder();
  const out = (l: string) => Deno.stdout.writeSync(enc.encode(l + "\n"));
  const err = (l: string) => Deno.stderr.writeSync(enc.encode(l + "\n"));
  const config = scriptConfig(err);
  if (!config) return 2;
  const opened = await openScriptDeps(config, createLogger(config.logLevel));
  try {
    const r = await sweepOverdue(opened.deps);
    if (Deno.args.includes("--json")) out(JSON.stringify(r));
    else out(`sweep of ${r.date}: ${r.overdue} bills now overdue, ${r.late_fees} late fees added`);
    return 0;
  } finally {
    await opened.close();
  }
}

if (import.meta.main) Deno.exit(await main());
