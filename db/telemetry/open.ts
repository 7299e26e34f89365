/**
 * Chooses the telemetry backend: QuestDB when a URL is configured (`QUESTDB_URL`),
 * otherwise the embedded SQLite store at `sqlitePath`.
 */
import type { TelemetryStore } from "./mod.ts";
import { openQuestDbStore } from "./questdb.ts";
import { openSqliteStore } from "./sqlite.ts";

/** What the composition root knows about telemetry storage. */
interface TelemetryConfig {
  /** QuestDB URL (`http://host:9000`); when set (not empty or null), QuestDB is used. */
  questdbUrl?: string | null;
  /** SQLite file (or `:memory:`) of the embedded store. */
  sqlitePath: string;
  /** Days of raw samples the SQLite store keeps (default 35); QuestDB keeps everything. */
  rawRetentionDays?: number;
  /**
   * Only read the SQLite file, which another process (ingest) writes: no merges, no pruning,
   * writes refused (see `openSqliteStore`). QuestDB is read and written by every process.
   */
  readOnly?: boolean;
  /** Receives errors of background writes (size- or timer-triggered flushes). */
  onError?: (error: unknown) => void;
}

/** Opens the configured telemetry store. */
export async function openTelemetry(config: TelemetryConfig): Promise<TelemetryStore> {
  const { onError } = config;
  if (config.questdbUrl) return await openQuestDbStore(config.questdbUrl, { onError });
  // A database file is written by a worker thread, so that SQLite's work does not share the
  // event loop with MQTT parsing. Large batches (50,000 samples or a second's worth): each
  // batch also rewrites every device's current rollup rows and latest values once, so with
  // many meters fewer, larger transactions keep up with ingest.
  return openSqliteStore(config.sqlitePath, {
    rawRetentionDays: config.rawRetentionDays,
    batchSize: 50_000,
    worker: !config.readOnly && config.sqlitePath !== ":memory:",
    readOnly: config.readOnly,
    onError,
  });
}
