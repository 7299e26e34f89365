/** The server's structured log: one JSON line per event on stderr. */

/** Log levels, most verbose first. */
type Level = "debug" | "info" | "warn" | "error";

/** A logger. */
export interface Logger {
  log(level: Level, message: string, context?: Record<string, unknown>): void;
}

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** A logger writing JSON lines at or above `min` to `write` (stderr by default). */
export function createLogger(
  min: Level,
  write: (line: string) => void = (line) =>
    Deno.stderr.writeSync(new TextEncoder().encode(line + "\n")),
): Logger {
  return {
    log(level, message, context) {
      if (ORDER[level] < ORDER[min]) return;
      write(JSON.stringify({ time: new Date().toISOString(), level, message, ...context }));
    },
  };
}

/** A logger that keeps its lines in memory (tests read them). */
export function memoryLogger(): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    log(level, message, context) {
      lines.push({ level, message, ...context });
    },
  };
}
