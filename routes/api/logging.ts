/**
 * The client log sink `POST /logging`: accepts a validated entry, keeps the last 500 in
 * memory (the debug log cap) and writes it to the server log. Rate-limited per address.
 */
import { Hono } from "hono";
import type { MiddlewareHandler } from "hono";
import type { AppEnv, Deps } from "../_deps.ts";
import { badRequest, clientAddress } from "../_http.ts";
import { jsonInput } from "../_validate.ts";
import { logEntrySchema } from "../../core/schemas.ts";

/** How many client entries are kept. */
export const LOG_CAP = 500;
/** Largest entry accepted, in bytes. */
const LOG_BODY_LIMIT = 16 * 1024;
/** Entries accepted per address per minute. */
export const LOG_RATE_PER_MINUTE = 60;

/** A kept client log entry (spec: seq, timestamp, level, message, component, context). */
interface ClientLogEntry {
  seq: number;
  timestamp: number;
  level: string;
  message: string;
  component: string;
  context: Record<string, unknown>;
}

/**
 * The sink's route, mounted at /logging and /api/logging (one sink for both); `entries()` reads
 * what is kept (for the system page and tests).
 */
export function loggingRoutes(deps: Deps): Hono<AppEnv> & { entries(): ClientLogEntry[] } {
  const app = new Hono<AppEnv>();
  const kept: ClientLogEntry[] = [];
  const rate = new Map<string, { minute: number; count: number }>();
  let seq = 0;

  /** Past its address's entries of the minute: 429 before the body is read. */
  const rated: MiddlewareHandler<AppEnv> = async (c, next) => {
    const now = deps.now();
    const addr = clientAddress(c, deps.config.trustProxy);
    const minute = Math.floor(now / 60_000);
    const r = rate.get(addr);
    if (r && r.minute === minute && r.count >= LOG_RATE_PER_MINUTE) {
      return c.json({ message: c.var.t("errors.rate_limited") }, 429);
    }
    rate.set(
      addr,
      r && r.minute === minute ? { minute, count: r.count + 1 } : { minute, count: 1 },
    );
    if (rate.size > 10_000) rate.clear();
    await next();
  };
  const body = jsonInput(logEntrySchema, {
    message: "validation.failed",
    anyJson: true,
    limit: LOG_BODY_LIMIT,
  });

  app.post("/", rated, body, (c) => {
    const now = deps.now();
    const input = c.req.valid("json");
    const context = input.context ?? {};
    if (JSON.stringify(context).length > 8192) {
      return badRequest(c, { context: "validation.too_long" });
    }
    const entry: ClientLogEntry = {
      seq: ++seq,
      timestamp: now,
      level: input.level,
      message: input.message,
      component: typeof context.component === "string" ? context.component.slice(0, 100) : "client",
      context,
    };
    kept.push(entry);
    if (kept.length > LOG_CAP) kept.splice(0, kept.length - LOG_CAP);
    deps.log.log(entry.level === "error" ? "warn" : "debug", "client log", {
      client_message: entry.message,
      component: entry.component,
      user_id: c.var.user?.id ?? null,
    });
    return c.json({ ok: true, seq: entry.seq }, 201);
  });
  return Object.assign(app, { entries: () => [...kept] });
}
