/**
 * `deno task invoice-global [YYYY-MM]`: the global invoice (público en general) of the bills
 * paid in a month without fiscal data (services/invoices/global.ts); the month before by
 * default. Issued once: a month asked for again issues nothing new. Without `FACTURAPI_KEY`
 * the local sandbox issues a test invoice ("sin validez fiscal"). Exits 0, 1 when an invoice
 * failed, 2 for a bad month or configuration. The portal does the same on the 1st.
 */
import { printErr, printOut, runWithStores } from "./_deps.ts";
import {
  invoicePass,
  issueGlobalInvoices,
  monthBefore,
  startLocalFacturapi,
} from "../services/invoices/mod.ts";
import { clockOf } from "../services/platform/clock.ts";

function main(): Promise<number> {
  const arg = Deno.args.find((a) => !a.startsWith("--"));
  if (arg !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(arg)) {
    printErr(`not a month (YYYY-MM): ${arg}`);
    return Promise.resolve(2);
  }
  return runWithStores(async (deps) => {
    const local = deps.config.facturapi.key ? null : await startLocalFacturapi(deps.config);
    const d = local ? { ...deps, config: { ...deps.config, facturapi: local.settings } } : deps;
    try {
      await invoicePass(d); // paid bills not yet sorted into named invoices and global lines
      const month = arg ?? monthBefore(clockOf(d).month());
      const done = await issueGlobalInvoices(d, month);
      if (done.length === 0) printOut(`global invoice of ${month}: no bills waiting`);
      for (const inv of done) {
        printOut(
          `global invoice of ${month} (${inv.currency}): ${inv.status}, ${inv.lines.length} bills` +
            (inv.error ? `: ${inv.error}` : "") + (inv.test ? " (sin validez fiscal)" : ""),
        );
      }
      return done.some((i) => i.status === "failed") ? 1 : 0;
    } finally {
      await local?.sandbox.stop();
    }
  });
}

if (import.meta.main) Deno.exit(await main());
