/**
 * Ingest as a long-running service: given the device directory, the status sink and the
 * telemetry store (whatever backs them), it starts the subscriber, says when it is
 * subscribed, logs its counters every minute, and stops cleanly. Used by
 * `scripts/ingest.ts` (ingest as its own process) and by `main.ts` (inside the portal).
 */
import type { TelemetryStore } from "../db/telemetry/mod.ts";
import type { DeviceDirectory, StatusSink } from "./contract.ts";
import { type Ingest, type IngestOptions, startIngest } from "./subscriber.ts";
import { type IngestLog, redactUrl } from "./_log.ts";

export { redactUrl } from "./_log.ts";

/** What ingest runs on. */
export interface RunIngestDeps {
  directory: DeviceDirectory;
  status: StatusSink;
  store: TelemetryStore;
  log: IngestLog;
}

/** Where and how ingest connects (everything of `startIngest` but the deps). */
export type RunIngestSettings = Omit<IngestOptions, "directory" | "status" | "store" | "log">;

/** A running ingest service. */
export interface RunningIngest {
  ingest: Ingest;
  /** Disconnects, writes and flushes what is pending. The stores stay open. */
  stop(): Promise<void>;
}

/** Starts ingest with `deps` and `settings`; returns at once (it connects in the background). */
export function runIngest(deps: RunIngestDeps, settings: RunIngestSettings): RunningIngest {
  const ingest = startIngest({ statsLogMs: 60_000, ...settings, ...deps });
  ingest.ready.then(
    () =>
      deps.log.log("info", "ingest subscribed", {
        url: redactUrl(settings.url),
        clientId: settings.clientId,
        shareGroup: settings.shareGroup ?? null,
      }),
    () => {},
  );
  return {
    ingest,
    async stop() {
      await ingest.stop();
      deps.log.log("info", "ingest stopped", { ...ingest.stats() });
    },
  };
}
