/**
 * The page's log to the portal (`POST /logging`, spec 000): one {@link RemoteLog} per page,
 * started by the first island that mounts, with the page's uncaught errors and rejected
 * promises sent to it. Islands report failed fetches through {@link clientLog}.
 */
import { RemoteLog } from "./remote_log.ts";

const KEY = Symbol.for("portal.clientLog");

/** Sends an entry; done unless the portal could not be reached or asked to wait (429, 5xx). */
async function send(entry: unknown): Promise<boolean> {
  try {
    const res = await fetch("/logging", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(entry),
    });
    await res.body?.cancel();
    return res.status !== 429 && res.status < 500;
  } catch {
    return false;
  }
}

/** The page's log, made (and its error listeners added) on first use. */
export function clientLog(): RemoteLog {
  const g = globalThis as unknown as Record<symbol, RemoteLog | undefined>;
  const existing = g[KEY];
  if (existing) return existing;
  const log = new RemoteLog({
    now: () => Date.now(),
    random: () => Math.random(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    send,
  });
  g[KEY] = log;
  const page = () => location.pathname;
  globalThis.addEventListener("error", (e) => {
    const ev = e as ErrorEvent;
    log.log("error", String(ev.message || "error"), {
      component: "window",
      page: page(),
      source: ev.filename,
      line: ev.lineno,
    });
  });
  globalThis.addEventListener("unhandledrejection", (e) => {
    const reason = (e as PromiseRejectionEvent).reason;
    log.log("error", String(reason instanceof Error ? reason.message : reason), {
      component: "promise",
      page: page(),
    });
  });
  return log;
}

/**
 * Logs a fetch of `url` answered `status` by `component`: a 401 is a session (token) check that
 * failed, throttled; a 404 is sampled; anything else is logged.
 */
export function logFailedFetch(status: number, url: string, component: string): void {
  const log = clientLog();
  if (status === 401) log.tokenCheck("Session check failed: 401", { component, url });
  else log.fetchError(status, url, { component, page: location.pathname });
}
