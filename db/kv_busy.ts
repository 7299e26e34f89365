/**
 * A KV file shared by several processes (portals and ingest processes on one host, one
 * `DATA_DIR`): Deno KV waits for SQLite's write lock, but a transaction that read first and
 * finds that another process wrote meanwhile fails at once with "database is locked"
 * (SQLITE_BUSY: SQLite does not wait there, since waiting could not help that transaction).
 * Nothing was written then, so the operation is simply made again: this wraps a `Deno.Kv` so
 * that every read, write and atomic commit that failed so is tried again, with
 * short growing pauses, for up to {@link BUSY_RETRY_MS}. Written by hand: Deno KV has no
 * option for it, and the failure must not reach a request as a 500.
 *
 * Only a KV file needs this; a KV Connect server (`DENO_KV_URL`) is one process. Lists are
 * left as they are: a list is a read (a WAL reader is not refused so), and a list's step tried
 * again could skip entries.
 */

/** How long an operation keeps being tried while the file is busy. */
export const BUSY_RETRY_MS = 10_000;

/** Whether `e` is SQLite's "busy" failure (nothing done, worth trying again). */
function isBusy(e: unknown): boolean {
  return e instanceof Error && /database is locked|database table is locked/.test(e.message);
}

/** Runs `op` again while it fails busy, for up to {@link BUSY_RETRY_MS}. */
async function retried<T>(op: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_RETRY_MS;
  for (let pause = 2;; pause = Math.min(pause * 2, 100)) {
    try {
      return await op();
    } catch (e) {
      if (!isBusy(e) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
    }
  }
}

/** `target` with `methods` tried again while busy; a method answering `target` answers the wrapper. */
function wrap<T extends object>(target: T, methods: Set<PropertyKey>, also = {}): T {
  const proxy: T = new Proxy(target, {
    get(t, prop) {
      if (prop in also) return (also as Record<PropertyKey, unknown>)[prop];
      const value = Reflect.get(t, prop, t);
      if (typeof value !== "function") return value;
      if (methods.has(prop)) {
        return (...args: unknown[]) => retried(() => value.apply(t, args));
      }
      return (...args: unknown[]) => {
        const out = value.apply(t, args);
        return out === t ? proxy : out;
      };
    },
  });
  return proxy;
}

const KV_CALLS = new Set<PropertyKey>(["get", "getMany", "set", "delete", "enqueue"]);
const OP_CALLS = new Set<PropertyKey>(["commit"]);
/** `kv` with its operations tried again while the shared file is busy (see above). */
export function retryWhenBusy(kv: Deno.Kv): Deno.Kv {
  return wrap(kv, KV_CALLS, {
    atomic: () => wrap(kv.atomic(), OP_CALLS),
  });
}
