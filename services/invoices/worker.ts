/**
 * The invoice worker (issue 31): a pass every 30 s (and when kicked, after a payment), and the
 * month's global invoice of the month before on the 1st, once whichever process gets there
 * first (`firstTime` in the store).
 */
import type { Deps } from "../deps.ts";
import { firstTime } from "../../db/outbox.ts";
import { clockOf } from "../platform/clock.ts";
import { invoicePass } from "./issue.ts";
import { issueGlobalInvoices, monthBefore } from "./global.ts";
import { invoicingOf } from "./settings.ts";

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
        const clock = clockOf(deps);
        if (clock.todayText().endsWith("-01")) {
          const month = monthBefore(clock.month());
          if (await firstTime(deps.kv, `invoice_global:${month}`)) {
            await issueGlobalInvoices(deps, month);
          }
        }
      } catch (e) {
        deps.log.log("error", "invoice pass failed", { error: String(e) });
      }
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  return {
    kick: run,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
