/**
 * Each running ingest publishes a snapshot of its counters to Deno KV every
 * {@link HEALTH_INTERVAL_MS} (the storage is `db/ingest_health.ts`), and removes it when it
 * stops cleanly.
 */
import type { SubscriberStats } from "./subscriber.ts";
import type { IngestLog } from "./_log.ts";
import { publishIngestHealth, removeIngestHealth } from "../db/ingest_health.ts";
import { HEALTH_INTERVAL_MS, type IngestHealthReport } from "../core/ingest_health.ts";

/** The report of a running ingest's stats. */
export function healthReport(
  stats: SubscriberStats,
  who: { instance: string; host: string; pid: number; startedAt: number },
  now: number,
): IngestHealthReport {
  return {
    ...who,
    reportedAt: now,
    connected: stats.connected,
    storeFailing: stats.storeFailing ?? false,
    received: stats.received,
    stored: stats.stored,
    dropped: { ...stats.dropped },
    errors: { ...stats.errors },
    perMinute: { ...stats.perMinute },
  };
}

/** What {@link startHealthPublisher} needs. */
interface HealthPublisherOptions {
  kv: Deno.Kv;
  /** The instance's key: the ingest's MQTT client id. */
  instance: string;
  stats: () => SubscriberStats;
  log: IngestLog;
  now?: () => number;
  intervalMs?: number;
}

/** A running publisher. */
interface HealthPublisher {
  /** Publishes now (e.g. once connected), besides the interval. */
  publishNow(): void;
  /** Resolves once the current write is done. */
  published(): Promise<void>;
  /** Stops publishing and removes the instance's report. */
  stop(): Promise<void>;
}

/**
 * Publishes the ingest's snapshot at once and then every `intervalMs` (default
 * {@link HEALTH_INTERVAL_MS}). A failed write is logged and retried at the next tick.
 */
export function startHealthPublisher(options: HealthPublisherOptions): HealthPublisher {
  const now = options.now ?? Date.now;
  const who = {
    instance: options.instance,
    host: Deno.hostname(),
    pid: Deno.pid,
    startedAt: now(),
  };
  let failures = 0;
  let stopped = false;
  let writing: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    writing = writing.then(async () => {
      if (stopped) return;
      try {
        await publishIngestHealth(options.kv, healthReport(options.stats(), who, now()));
        failures = 0;
      } catch (error) {
        // One line per outage, not one per tick.
        if (failures++ === 0) {
          options.log.log("warn", "ingest could not publish its health", {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? HEALTH_INTERVAL_MS);
  return {
    publishNow: tick,
    published: () => writing,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await writing;
      await removeIngestHealth(options.kv, options.instance).catch(() => {});
    },
  };
}
