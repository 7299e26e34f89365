/**
 * The invoice worker (issue 31): a pass every 30 s (and when kicked, after a payment) in every
 * process, each invoice claimed by its own commit; and the global invoices of the month before,
 * asked for every hour by the one process holding the `invoice_global` lease from the 1st on
 * (a month's global invoice is made once by its key, so the asks after the first change nothing,
 * and a portal that was down on the 1st still issues it when it comes back).
 */
import type { Deps } from "../deps.ts";
import { runAsSingleton } from "../platform/singleton.ts";
import { clockOf } from "../platform/clock.ts";
import { invoicePass } from "./issue.ts";
import { issueGlobalInvoices, monthBefore } from "./global.ts";
import { invoicingOf } from "./settings.ts";

/** How often the lease holder asks for the month before's global invoices. */
const GLOBAL_EVERY_MS = 3_600_000;

/** A running worker. */
export interface InvoiceWorker {
  kick(): void;
  stop(): Promise<void>;
}

/** Starts the worker (nothing runs without a Facturapi client). */
export function startInvoiceWorker(deps: Deps, everyMs = 30_000): InvoiceWorker {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (stopped || !invoicingOf(deps)) return;
    running = running.then(async () => {
      try {
        await invoicePass(deps);
      } catch (e) {
        deps.log.log("error", "invoice pass failed", { error: String(e) });
      }
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  const global = runAsSingleton(deps, "invoice_global", GLOBAL_EVERY_MS, async () => {
    if (!invoicingOf(deps)) return;
    await issueGlobalInvoices(deps, monthBefore(clockOf(deps).month()));
  }, { atStart: true });
  return {
    kick: run,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await global.stop();
      await running;
    },
  };
}
