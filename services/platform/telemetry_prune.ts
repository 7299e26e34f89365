/**
 * Raw telemetry older than the retention is pruned by a process that writes the store (the
 * portal with ingest, or an ingest process), never by one that only reads it: every six
 * hours, in the one such process holding the `telemetry_prune` lease (singleton.ts). Idempotent
 * on its own: a prune deletes rows before a horizon, and a second one finds none.
 */
import type { Deps } from "../deps.ts";
import { runAsSingleton, type Singleton, type SingletonOptions } from "./singleton.ts";

/** How often raw rows past the retention are deleted. */
export const PRUNE_EVERY_MS = 6 * 3_600_000;

/** Starts pruning the telemetry store of `deps` (the first prune one interval after the first start). */
export function startTelemetryPrune(
  deps: Pick<Deps, "kv" | "now" | "log" | "telemetry">,
  o: SingletonOptions = {},
): Singleton {
  return runAsSingleton(deps, "telemetry_prune", PRUNE_EVERY_MS, async () => {
    try {
      const deleted = await deps.telemetry.prune(deps.now());
      if (deleted > 0) deps.log.log("info", "telemetry pruned", { deleted });
    } catch (e) {
      deps.log.log("error", "telemetry prune failed", { error: String(e) });
    }
  }, { firstAfterInterval: true, ...o });
}
