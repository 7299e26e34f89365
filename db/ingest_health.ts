/**
 * Ingest health in Deno KV (the storage; `ingest/health.ts` publishes): every running ingest (inside the portal or as its own process,
 * several of them on a shared subscription) writes a snapshot of its counters under its
 * own key every {@link HEALTH_INTERVAL_MS}, with an expiry so that a dead instance
 * vanishes; the system uptime page and `GET /api/measurements/ingest-health` read them all.
 * Processes that share the KV (`DENO_KV_URL`, or one `DATA_DIR`) see each other.
 *
 * KV layout:
 *   ["ingest_health", instance] -> IngestHealthReport   (expireIn HEALTH_TTL_MS)
 *
 * `instance` is the ingest's MQTT client id, unique per ingest process.
 */
import {
  DROP_REASONS,
  type DropReason,
  type ErrorKind,
  type IngestStats,
} from "../ingest/stats.ts";

/** How often an ingest publishes its snapshot. */
export const HEALTH_INTERVAL_MS = 15_000;
/** A report older than this (three intervals) is stale: its ingest stopped reporting. */
export const HEALTH_STALE_MS = 3 * HEALTH_INTERVAL_MS;
/** The key expires after this (KV deletes expired keys lazily, so staleness is checked too). */
export const HEALTH_TTL_MS = 10 * HEALTH_INTERVAL_MS;

const PREFIX = ["ingest_health"] as const;

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
export interface IngestInstanceHealth extends IngestHealthReport {
  stale: boolean;
}

/** Counters summed over instances. */
export interface IngestHealthTotal {
  received: number;
  stored: number;
  dropped: Record<DropReason, number>;
  errors: Record<ErrorKind, number>;
  perMinute: { received: number; stored: number; dropped: number };
}

/**
 * The health of ingest as a whole: `not_running` when no ingest reported, `stale` when
 * every report is older than {@link HEALTH_STALE_MS}, `failing` when a fresh one cannot write
 * to the telemetry store, else `running`. `total` sums the
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

/** Writes one instance's report, to expire after `ttlMs`. */
export async function publishIngestHealth(
  kv: Deno.Kv,
  report: IngestHealthReport,
  ttlMs = HEALTH_TTL_MS,
): Promise<void> {
  await kv.set([...PREFIX, report.instance], report, { expireIn: ttlMs });
}

/** Removes one instance's report (its ingest stopped cleanly). */
export async function removeIngestHealth(kv: Deno.Kv, instance: string): Promise<void> {
  await kv.delete([...PREFIX, instance]);
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
export function sumHealth(reports: IngestHealthReport[]): IngestHealthTotal {
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

/** Reads every instance's report and summarizes them at `now`. */
export async function readIngestHealth(kv: Deno.Kv, now: number): Promise<IngestHealth> {
  const reports: IngestHealthReport[] = [];
  for await (const e of kv.list<IngestHealthReport>({ prefix: [...PREFIX] })) {
    reports.push(e.value);
  }
  return summarizeHealth(reports, now);
}
