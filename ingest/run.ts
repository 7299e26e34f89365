/**
 * Ingest as a long-running service: given the device directory, the status sink and the
 * telemetry store (whatever backs them), it starts the subscriber, says when it is
 * subscribed, logs its counters every minute, publishes its health into Deno KV every
 * 15 seconds (when given the KV), and stops cleanly. Used by
 * `scripts/ingest.ts` (ingest as its own process) and by `main.ts` (inside the portal).
 */
import type { Sample, TelemetryStore } from "../db/telemetry/mod.ts";
import type { DeviceDirectory, StatusSink } from "./contract.ts";
import { type Ingest, type IngestOptions, startIngest } from "./subscriber.ts";
import { type IngestLog, redactUrl } from "./_log.ts";
import { startHealthPublisher } from "./health.ts";

export { redactUrl } from "./_log.ts";

/** What ingest runs on. */
export interface RunIngestDeps {
  directory: DeviceDirectory;
  status: StatusSink;
  store: TelemetryStore;
  log: IngestLog;
  /**
   * Where ingest publishes its health (see `ingest/health.ts`); without it, nothing is
   * published.
   */
  kv?: Deno.Kv;
  /** Handed each batch of samples (alert rules). */
  onSamples?: (samples: readonly Sample[]) => void;
  /** Called at each flush (alert rules: read again once their revision moved). */
  onFlush?: () => void;
}

/** Where and how ingest connects (everything of `startIngest` but the deps). */
type RunIngestSettings =
  & Omit<
    IngestOptions,
    "directory" | "status" | "store" | "log" | "onSamples" | "onFlush"
  >
  & {
    /** How often the health snapshot is published. Default 15 000. */
    healthMs?: number;
  };

/** A running ingest service. */
export interface RunningIngest {
  ingest: Ingest;
  /** Disconnects, writes and flushes what is pending. The stores stay open. */
  stop(): Promise<void>;
}

/** Starts ingest with `deps` and `settings`; returns at once (it connects in the background). */
export function runIngest(deps: RunIngestDeps, settings: RunIngestSettings): RunningIngest {
  const { healthMs, ...options } = settings;
  const { kv, ...ingestDeps } = deps;
  const ingest = startIngest({ statsLogMs: 60_000, ...options, ...ingestDeps });
  const health = kv
    ? startHealthPublisher({
      kv,
      instance: settings.clientId,
      stats: ingest.stats,
      log: deps.log,
      now: settings.now,
      intervalMs: healthMs,
    })
    : null;
  ingest.ready.then(
    () => {
      deps.log.log("info", "ingest subscribed", {
        url: redactUrl(settings.url),
        clientId: settings.clientId,
        shareGroup: settings.shareGroup ?? null,
      });
      // The page shows "connected" at once, not one interval later.
      health?.publishNow();
    },
    () => {},
  );
  return {
    ingest,
    async stop() {
      await health?.stop();
      await ingest.stop();
      deps.log.log("info", "ingest stopped", { ...ingest.stats() });
    },
  };
}
