/**
 * Chooses the telemetry backend: QuestDB when a URL is configured (`QUESTDB_URL`),
 * otherwise the embedded SQLite store at `sqlitePath`.
 */
import type { TelemetryStore } from "./mod.ts";
import { openQuestDbStore } from "./questdb.ts";
import { openSqliteStore } from "./sqlite.ts";

/** What the composition root knows about telemetry storage. */
export interface TelemetryConfig {
  /** QuestDB URL (`http://host:9000`); when set (not empty or null), QuestDB is used. */
  questdbUrl?: string | null;
  /** SQLite file (or `:memory:`) of the embedded store. */
  sqlitePath: string;
  /** Days of raw samples the SQLite store keeps (default 35); QuestDB keeps everything. */
  rawRetentionDays?: number;
  /** Receives errors of background writes (size- or timer-triggered flushes). */
  onError?: (error: unknown) => void;
}

/** Opens the configured telemetry store. */
export async function openTelemetry(config: TelemetryConfig): Promise<TelemetryStore> {
  const { onError } = config;
  if (config.questdbUrl) return await openQuestDbStore(config.questdbUrl, { onError });
  // A database file is written by a worker thread, so that SQLite's work does not share the
  // event loop with MQTT (ingest drains a broker's backlog at nearly a plain client's pace);
  // batches go every 250 ms or 50,000 samples, whichever comes first.
  const file = config.sqlitePath !== ":memory:";
  return openSqliteStore(config.sqlitePath, {
    rawRetentionDays: config.rawRetentionDays,
    batchSize: 50_000,
    flushIntervalMs: 250,
    worker: file,
    onError,
  });
}
