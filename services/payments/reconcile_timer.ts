/**
 * When the reconciliation sweep runs: at start-up, then every five minutes on a schedule kept
 * in the store (`claimReconcileSweep`), so that a restart neither skips nor postpones it and
 * several processes share one sweep per period. Sweeps run one after another, never
 * overlapping; a failed sweep is logged and the schedule goes on.
 */
import type { Deps } from "../deps.ts";
import { claimReconcileSweep } from "../../db/payments.ts";
import { reconcileCharges, type ReconcileResult } from "./reconciliation.ts";

/** How often the sweep runs. */
const RECONCILE_EVERY_MS = 5 * 60_000;
/** How often the schedule is looked at. */
const TICK_MS = 15_000;

/** Options of {@link startReconciliation}. */
interface ReconcileTimerOptions {
  everyMs?: number;
  tickMs?: number;
  /** Told of each sweep's result. */
  onSweep?: (r: ReconcileResult) => void;
}

/** A running schedule. */
interface ReconcileTimer {
  /** Stops the schedule; resolves once a sweep under way has ended. */
  stop(): Promise<void>;
}

/** Starts the schedule (see the module's text); the first sweep runs at once. */
export function startReconciliation(
  deps: Deps,
  o: ReconcileTimerOptions = {},
): ReconcileTimer {
  const every = o.everyMs ?? RECONCILE_EVERY_MS;
  const ac = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake = () => {};
  const sweep = async () => {
    try {
      o.onSweep?.(await reconcileCharges(deps));
    } catch (e) {
      deps.log.log("error", "payments reconciliation failed", { error: String(e) });
    }
  };
  const loop = (async () => {
    // At start-up it sweeps whatever the schedule says; the schedule itself moves on only
    // when its time has come.
    await claimReconcileSweep(deps.kv, deps.now(), every).catch(() => false);
    await sweep();
    while (!ac.signal.aborted) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, o.tickMs ?? TICK_MS);
      });
      if (ac.signal.aborted) break;
      const due = await claimReconcileSweep(deps.kv, deps.now(), every).catch((e) => {
        deps.log.log("error", "payments reconciliation schedule failed", { error: String(e) });
        return false;
      });
      if (due) await sweep();
    }
  })();
  return {
    stop: async () => {
      ac.abort();
      clearTimeout(timer);
      wake();
      await loop;
    },
  };
}
