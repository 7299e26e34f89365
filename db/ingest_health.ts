/**
 * Ingest health in Deno KV (the storage; `ingest/health.ts` publishes, the reports' shape and
 * summary are `core/ingest_health.ts`): every running ingest (inside the portal or as its own
 * process, several of them on a shared subscription) writes a snapshot of its counters under its
 * own key every `HEALTH_INTERVAL_MS`, with an expiry so that a dead instance
 * vanishes; the system uptime page and `GET /api/measurements/ingest-health` read them all.
 * Processes that share the KV (`DENO_KV_URL`, or one `DATA_DIR`) see each other.
 *
 * KV layout:
 *   ["ingest_health", instance] -> IngestHealthReport   (expireIn HEALTH_TTL_MS)
 *
 * `instance` is the ingest's MQTT client id, unique per ingest process.
 */
import {
  HEALTH_INTERVAL_MS,
  type IngestHealth,
  type IngestHealthReport,
  summarizeHealth,
} from "../core/ingest_health.ts";

/** The key expires after this (KV deletes expired keys lazily, so staleness is checked too). */
const HEALTH_TTL_MS = 10 * HEALTH_INTERVAL_MS;

const PREFIX = ["ingest_health"] as const;

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

/** Reads every instance's report and summarizes them at `now`. */
export async function readIngestHealth(kv: Deno.Kv, now: number): Promise<IngestHealth> {
  const reports: IngestHealthReport[] = [];
  for await (const e of kv.list<IngestHealthReport>({ prefix: [...PREFIX] })) {
    reports.push(e.value);
  }
  return summarizeHealth(reports, now);
}
