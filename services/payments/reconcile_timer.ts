/**
 * When the reconciliation sweep runs: every five minutes in whichever one process holds the
 * `payments_reconcile` lease (services/platform/singleton.ts), on a schedule kept in the
 * store, so that a restart neither skips nor postpones it and several processes share one
 * sweep per period; the holder also sweeps once when it takes the lease (at start-up, or
 * taking over from a dead process). Sweeps run one after another, never overlapping; a failed
 * sweep is logged and the schedule goes on. A sweep is idempotent on its own: each charge's
 * change is a commit checked against the charge and its bill, and a paid event counts once.
 */
import type { Deps } from "../deps.ts";
import { runAsSingleton } from "../platform/singleton.ts";
import { reconcileCharges, type ReconcileResult } from "./reconciliation.ts";

/** How often the sweep runs. */
const RECONCILE_EVERY_MS = 5 * 60_000;

/** Options of {@link startReconciliation}. */
interface ReconcileTimerOptions {
  everyMs?: number;
  /** How often the lease is renewed and the schedule looked at. */
  tickMs?: number;
  /** Told of each sweep's result. */
  onSweep?: (r: ReconcileResult) => void;
}

/** A running schedule. */
interface ReconcileTimer {
  /** Stops the schedule; resolves once a sweep under way has ended. */
  stop(): Promise<void>;
}

/** Starts the schedule (see the module's text). */
export function startReconciliation(
  deps: Deps,
  o: ReconcileTimerOptions = {},
): ReconcileTimer {
  return runAsSingleton(
    deps,
    "payments_reconcile",
    o.everyMs ?? RECONCILE_EVERY_MS,
    async () => {
      try {
        o.onSweep?.(await reconcileCharges(deps));
      } catch (e) {
        deps.log.log("error", "payments reconciliation failed", { error: String(e) });
      }
    },
    { atStart: true, tickMs: o.tickMs },
  );
}
