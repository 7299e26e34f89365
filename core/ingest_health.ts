/**
 * Ingest's health: what an ingest counts (messages received, samples stored, messages dropped
 * by reason, errors), the report each running ingest publishes (stored by
 * `db/ingest_health.ts`) and the health of ingest as a whole summed from them. Pure: time is a
 * parameter.
 */

/** Why a message was dropped. */
export const DROP_REASONS = [
  "malformed_json",
  "wrong_type",
  "unknown_topic",
  "unknown_device",
  "directory_error",
  "oversized",
  "flood",
  "store_error",
] as const;

/** A reason for dropping a message (or, for `store_error`, samples the store refused). */
export type DropReason = typeof DROP_REASONS[number];

/** What an error was caught from. */
export type ErrorKind = "store" | "status" | "directory" | "internal";

/** A snapshot of the counters. */
export interface IngestStats {
  /** Messages received from the broker. */
  received: number;
  /** Samples handed to the store. */
  stored: number;
  /** Messages of known topics that carry no reading (status/sys, NotifyEvent, ...). */
  ignored: number;
  /** Fields dropped inside otherwise good messages (wrong type, out of range). */
  invalidFields: number;
  /** Dropped messages by reason (`store_error` counts samples). */
  dropped: Record<DropReason, number>;
  /**
   * Errors caught from the store's flush, the status sink, the directory, and any
   * unexpected error while handling a message (`internal`; the message is lost).
   */
  errors: Record<ErrorKind, number>;
  /** Totals over the last 60 seconds. */
  perMinute: { received: number; stored: number; dropped: number };
}

/** How often an ingest publishes its snapshot. */
export const HEALTH_INTERVAL_MS = 15_000;
/** A report older than this (three intervals) is stale: its ingest stopped reporting. */
export const HEALTH_STALE_MS = 3 * HEALTH_INTERVAL_MS;

/** What one ingest instance reported. Times are epoch ms. */
export interface IngestHealthReport
  extends Pick<IngestStats, "received" | "stored" | "dropped" | "errors" | "perMinute"> {
  /** The ingest's MQTT client id. */
  instance: string;
  /** Host name and process id of the ingest. */
  host: string;
  pid: number;
  /** When the ingest started, and when it wrote this report (its counters: totals since the start). */
  startedAt: number;
  reportedAt: number;
  /** Whether it was connected to the broker. */
  connected: boolean;
  /**
   * Whether its last write to the telemetry store failed (it acknowledges no reading until
   * one succeeds); absent in reports of ingests from before it was said.
   */
  storeFailing?: boolean;
}

/** A report as read back, with whether it is stale. */
interface IngestInstanceHealth extends IngestHealthReport {
  stale: boolean;
}

/** Counters summed over instances. */
interface IngestHealthTotal {
  received: number;
  stored: number;
  dropped: Record<DropReason, number>;
  errors: Record<ErrorKind, number>;
  perMinute: { received: number; stored: number; dropped: number };
}

/**
 * The health of ingest as a whole: `not_running` when no ingest reported, `stale` when
 * every report is older than {@link HEALTH_STALE_MS}, `failing` when a fresh one cannot write to
 * the telemetry store, else `running`. `total` sums the
 * instances that still report (all of them when every report is stale).
 */
export interface IngestHealth {
  status: "running" | "failing" | "stale" | "not_running";
  checkedAt: number;
  /** The newest report's time, or null. */
  lastReportAt: number | null;
  staleAfterMs: number;
  instances: IngestInstanceHealth[];
  total: IngestHealthTotal;
}

const zeroDropped = () =>
  Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>;
const zeroErrors = (): Record<ErrorKind, number> => ({
  store: 0,
  status: 0,
  directory: 0,
  internal: 0,
});

/** Sums reports; a reason or kind a report lacks counts as zero. */
function sumHealth(reports: IngestHealthReport[]): IngestHealthTotal {
  const total: IngestHealthTotal = {
    received: 0,
    stored: 0,
    dropped: zeroDropped(),
    errors: zeroErrors(),
    perMinute: { received: 0, stored: 0, dropped: 0 },
  };
  for (const r of reports) {
    total.received += r.received;
    total.stored += r.stored;
    for (const k of DROP_REASONS) total.dropped[k] += r.dropped?.[k] ?? 0;
    for (const k of Object.keys(total.errors) as ErrorKind[]) {
      total.errors[k] += r.errors?.[k] ?? 0;
    }
    total.perMinute.received += r.perMinute.received;
    total.perMinute.stored += r.perMinute.stored;
    total.perMinute.dropped += r.perMinute.dropped;
  }
  return total;
}

/** The health of ingest from its reports, at `now`. Pure. */
export function summarizeHealth(
  reports: IngestHealthReport[],
  now: number,
  staleAfterMs = HEALTH_STALE_MS,
): IngestHealth {
  const instances = reports
    .map((r) => ({ ...r, stale: now - r.reportedAt > staleAfterMs }))
    .sort((a, b) => a.instance.localeCompare(b.instance));
  const fresh = instances.filter((r) => !r.stale);
  const lastReportAt = instances.length === 0
    ? null
    : Math.max(...instances.map((r) => r.reportedAt));
  return {
    status: instances.length === 0
      ? "not_running"
      : fresh.length === 0
      ? "stale"
      : fresh.some((r) => r.storeFailing)
      ? "failing"
      : "running",
    checkedAt: now,
    lastReportAt,
    staleAfterMs,
    instances,
    total: sumHealth(fresh.length > 0 ? fresh : instances),
  };
}
