/**
 * Where a request's milliseconds go: a per-request account of KV reads and writes, telemetry
 * store queries and rendering, sent as a `Server-Timing` header when `config.serverTiming`
 * (development, or `SERVER_TIMING=true`). The account is carried by `AsyncLocalStorage`, so
 * the stores add to it without knowing the request: {@link timedKv} and {@link timedTelemetry}
 * wrap the opened stores (`stores.ts`, only when timing is on: production pays nothing), and
 * code that renders calls {@link timedSync}. Times of reads that run together are summed (a
 * `Promise.all` of ten 1-ms reads counts 10 ms), with their count: the header says how much
 * work a page asked for, the total how long it took.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { TelemetryStore } from "../../db/telemetry/mod.ts";

/** One request's account: per metric, the summed milliseconds and the number of calls. */
export type Timing = Map<string, { ms: number; count: number }>;

const current = new AsyncLocalStorage<Timing>();

/** Runs `fn` with a fresh account; answers its result and the account. */
export async function withTiming<T>(fn: () => Promise<T>): Promise<{ result: T; timing: Timing }> {
  const timing: Timing = new Map();
  const result = await current.run(timing, fn);
  return { result, timing };
}

/** Adds `ms` to the metric `name` of the current request's account (none: nothing). */
export function addTiming(name: string, ms: number): void {
  const timing = current.getStore();
  if (!timing) return;
  const m = timing.get(name);
  if (m) {
    m.ms += ms;
    m.count++;
  } else timing.set(name, { ms, count: 1 });
}

/** Runs `fn` counting its time under `name` (when a request's account is open). */
export async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!current.getStore()) return await fn();
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    addTiming(name, performance.now() - t0);
  }
}

/** {@link timed} for synchronous work (rendering). */
export function timedSync<T>(name: string, fn: () => T): T {
  if (!current.getStore()) return fn();
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    addTiming(name, performance.now() - t0);
  }
}

/** The `Server-Timing` value of an account and the request's total time. */
export function serverTimingHeader(timing: Timing, totalMs: number): string {
  const parts = [...timing].map(([name, m]) =>
    `${name};dur=${m.ms.toFixed(2)};desc="${m.count} call${m.count === 1 ? "" : "s"}"`
  );
  parts.push(`total;dur=${totalMs.toFixed(2)}`);
  return parts.join(", ");
}

/** Times each `next()` of a KV list under `kv-list` (one call per list). */
function timedList<T>(iter: Deno.KvListIterator<T>): Deno.KvListIterator<T> {
  let spent = 0;
  let counted = false;
  const next = async () => {
    const t0 = performance.now();
    const r = await iter.next();
    spent += performance.now() - t0;
    if (r.done && !counted) {
      counted = true;
      addTiming("kv-list", spent);
    }
    return r;
  };
  return Object.assign(Object.create(iter), {
    next,
    [Symbol.asyncIterator]() {
      return this;
    },
  });
}

const KV_TIMED: Record<string, string> = {
  get: "kv-get",
  getMany: "kv-get",
  set: "kv-write",
  delete: "kv-write",
};

/**
 * `kv` whose reads (`kv-get`, `kv-list`) and writes (`kv-write`: set, delete, an atomic
 * commit) add to the request's account.
 */
export function timedKv(kv: Deno.Kv): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const fn = value.bind(target);
      if (prop === "list") return (...a: unknown[]) => timedList(fn(...a));
      if (prop === "atomic") {
        return () => {
          const op: Deno.AtomicOperation = fn();
          const commit = op.commit.bind(op);
          op.commit = () => timed("kv-write", commit);
          return op;
        };
      }
      const name = typeof prop === "string" ? KV_TIMED[prop] : undefined;
      return name ? (...a: unknown[]) => timed(name, () => fn(...a)) : fn;
    },
  });
}

/** `store` whose queries add to the request's account under `store`. */
export function timedTelemetry(store: TelemetryStore): TelemetryStore {
  const queries = new Set(["latest", "series", "counterDelta", "counterUsage", "counterSeries"]);
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      const fn = value.bind(target);
      if (typeof prop === "string" && queries.has(prop)) {
        return (...a: unknown[]) => timed("store", () => fn(...a));
      }
      return fn;
    },
  });
}

/** `deps` with its KV and telemetry store timed ({@link timedKv}, {@link timedTelemetry}). */
export function withTimedStores<D extends { kv: Deno.Kv; telemetry: TelemetryStore }>(deps: D): D {
  return { ...deps, kv: timedKv(deps.kv), telemetry: timedTelemetry(deps.telemetry) };
}
