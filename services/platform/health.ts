/**
 * The portal's health: a short list of checks (KV, the telemetry store, MQTT, the outbox; more can be added to
 * {@link HEALTH_CHECKS}), each timed and bounded by a timeout. `GET /health` answers the report
 * (503 when a check fails) and the admin dashboard shows the failing checks.
 */
import type { Deps } from "../deps.ts";
import { probeKv } from "../../db/kv.ts";
import { checkStore, messageOf } from "../../db/telemetry/mod.ts";
import { isDiskFull } from "../refusal.ts";
import { mqttHealth, outboxHealth } from "./health_runtime.ts";

/** One check: a name (the key in the report) and what it runs; throws when it fails. */
interface HealthCheck {
  name: string;
  /** Resolves (with facts to report, if any) when healthy; throws saying what failed. */
  run(deps: Deps): Promise<Record<string, string | number | boolean> | void>;
}

/** Why a check failed: a full disk, no answer in time, or any other error. */
type HealthReason = "disk_full" | "timeout" | "error";

/** The outcome of one check. */
interface CheckResult {
  ok: boolean;
  latency_ms: number;
  /** Why it failed (when it did). */
  reason?: HealthReason;
  /** What failed, for the administrator (not sent by `GET /health`: it may name paths). */
  message?: string;
  [fact: string]: string | number | boolean | undefined;
}

/** The report: `ok` when every check passed, else `failing`. */
interface HealthReport {
  status: "ok" | "failing";
  checks: Record<string, CheckResult>;
}

/** Deno KV answers a write and a read. */
const kvCheck: HealthCheck = {
  name: "kv",
  run: (deps) => probeKv(deps.kv, deps.now()),
};

/** The telemetry store can be read and written (`TelemetryStore.check`). */
const telemetryCheck: HealthCheck = {
  name: "telemetry",
  async run(deps) {
    await checkStore(deps.telemetry);
    return { backend: deps.telemetry.stats().backend };
  },
};

/** The checks of `GET /health`, in the order they are reported. */
const HEALTH_CHECKS: readonly HealthCheck[] = [
  kvCheck,
  telemetryCheck,
  { name: "mqtt", run: mqttHealth },
  { name: "outbox", run: outboxHealth },
];

/** How long a check may take before it counts as failed. */
const HEALTH_TIMEOUT_MS = 5_000;

/** Runs `checks` at once, each bounded by `timeoutMs`. */
export async function checkHealth(
  deps: Deps,
  checks: readonly HealthCheck[] = HEALTH_CHECKS,
  timeoutMs = HEALTH_TIMEOUT_MS,
): Promise<HealthReport> {
  const results = await Promise.all(checks.map((c) => runCheck(deps, c, timeoutMs)));
  const report: HealthReport = { status: "ok", checks: {} };
  checks.forEach((c, i) => {
    report.checks[c.name] = results[i];
    if (!results[i].ok) report.status = "failing";
  });
  if (checks === HEALTH_CHECKS) latest.set(deps.kv, { at: performance.now(), report });
  return report;
}

/** The newest full report of each store (`/health`'s and the dashboard's checks). */
const latest = new WeakMap<Deno.Kv, { at: number; report: HealthReport }>();

/**
 * The newest full health report when younger than `maxAgeMs`, else a new one: the admin's
 * dashboard (and its ETag) shows the portal's health at most this old, and a fault `/health`
 * found shows on the next view.
 */
export async function recentHealth(deps: Deps, maxAgeMs = 5_000): Promise<HealthReport> {
  const last = latest.get(deps.kv);
  if (last && performance.now() - last.at < maxAgeMs) return last.report;
  return await checkHealth(deps);
}

async function runCheck(deps: Deps, check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  const start = performance.now();
  const elapsed = () => Math.round((performance.now() - start) * 10) / 10;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(timeoutMs)), timeoutMs);
  });
  try {
    const facts = await Promise.race([check.run(deps), timeout]);
    return { ok: true, latency_ms: elapsed(), ...facts };
  } catch (e) {
    const reason: HealthReason = e instanceof CheckTimeout
      ? "timeout"
      : isDiskFull(e)
      ? "disk_full"
      : "error";
    deps.log.log("error", "health check failed", { check: check.name, error: messageOf(e) });
    return { ok: false, latency_ms: elapsed(), reason, message: messageOf(e) };
  } finally {
    clearTimeout(timer);
  }
}

class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** The report as `GET /health` answers it: without the messages (they may name paths). */
export function publicHealth(report: HealthReport): HealthReport {
  const checks: Record<string, CheckResult> = {};
  for (const [name, r] of Object.entries(report.checks)) {
    const { message: _, ...rest } = r;
    checks[name] = rest;
  }
  return { status: report.status, checks };
}
