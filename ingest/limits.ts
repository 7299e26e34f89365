/** Ingest's tunables (rates, sizes, batches, time windows) and their defaults. */
import { DEFAULT_TIME_WINDOW, type TimeWindow } from "./shelly.ts";

/** Tunables of ingest, with their defaults. */
export interface IngestLimits {
  /** A device silent this long is offline. Default 120 000 (2 minutes). */
  silenceMs: number;
  /** Larger payloads are dropped as `oversized`. Default 32 768 bytes. */
  maxMessageBytes: number;
  /** Sustained messages per second per device before `flood` drops. Default 10. */
  ratePerDevice: number;
  /**
   * Messages a device may send at once (a backlog queued while ingest was away arrives
   * at once: size it for the longest outage to ride out). Default 1 200.
   */
  burstPerDevice: number;
  /** Samples pending before they are handed to the store at once. Default 1 000. */
  batchSize: number;
  /**
   * Shortest time (ms) from the start of one group commit of the store (what acknowledges
   * messages) to the next: longer makes fewer, larger commits and acknowledgements later.
   * Mind the broker's limit of unacknowledged messages (Mosquitto's `max_inflight_messages`:
   * at most that many per gap). Default 5.
   */
  commitGapMs: number;
  /** How long a known device is trusted before the directory is asked again. Default 60 s. */
  knownTtlMs: number;
  /** How long an unknown prefix stays unknown before the directory is asked again. Default 30 s. */
  unknownTtlMs: number;
  /** Messages kept per prefix while the directory is being asked. Default 1 000. */
  maxWaitingPerPrefix: number;
  /** Which frame times are believed. */
  timeWindow: TimeWindow;
  /**
   * Whether NotifyStatus readings carry the whole known state (true, default) or only the
   * frame's own values (false: for processes on a shared subscription).
   */
  overlayPartialFrames: boolean;
  /** A drop reason is logged at most once per this interval. Default 10 000. */
  logIntervalMs: number;
}

/** The default {@link IngestLimits}. */
export const DEFAULT_LIMITS: IngestLimits = {
  silenceMs: 120_000,
  maxMessageBytes: 32_768,
  ratePerDevice: 10,
  burstPerDevice: 1_200,
  batchSize: 1_000,
  commitGapMs: 5,
  knownTtlMs: 60_000,
  unknownTtlMs: 30_000,
  maxWaitingPerPrefix: 1_000,
  timeWindow: DEFAULT_TIME_WINDOW,
  overlayPartialFrames: true,
  logIntervalMs: 10_000,
};
