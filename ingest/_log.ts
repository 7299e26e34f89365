/**
 * The log ingest writes to (structurally the portal's `Logger` from `services/platform/log.ts`) and
 * a throttle so that a flood of bad messages gives a few lines, not one per message.
 */

/** Log levels, most verbose first. */
type LogLevel = "debug" | "info" | "warn" | "error";

/** Where ingest writes log lines. */
export interface IngestLog {
  log(level: LogLevel, message: string, context?: Record<string, unknown>): void;
}

/** A log that writes nothing. */
export const SILENT_LOG: IngestLog = { log() {} };

/** A log that writes each key at most once per interval, with the count left out since. */
export interface ThrottledLog {
  /** Logs unless `key` was logged less than the interval ago (then only counts it). */
  log(key: string, level: LogLevel, message: string, context?: Record<string, unknown>): void;
}

/** Throttles `log` per key: at most one line per `intervalMs`, saying how many were left out. */
export function throttledLog(log: IngestLog, intervalMs: number, now: () => number): ThrottledLog {
  const last = new Map<string, { at: number; suppressed: number }>();
  return {
    log(key, level, message, context) {
      const t = now();
      const seen = last.get(key);
      if (seen && t - seen.at < intervalMs) {
        seen.suppressed++;
        return;
      }
      const suppressed = seen?.suppressed ?? 0;
      last.set(key, { at: t, suppressed: 0 });
      log.log(level, message, suppressed > 0 ? { ...context, suppressed } : context);
    },
  };
}

/** A broker URL without any password in it, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}
