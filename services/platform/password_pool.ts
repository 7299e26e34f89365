/**
 * A small pool of worker threads for Argon2id, with a bounded queue: a job beyond the bound is
 * refused at once (`unavailable`, answered 503 with Retry-After) instead of stalling everyone.
 * A job may go `first` (a sign-in of an account nobody has failed on lately): it waits only
 * behind other first jobs, and has a bound of its own, so a flood of the other jobs neither
 * delays nor refuses it beyond the jobs already running.
 * Threads start on demand and end after a while without work: each is a V8 isolate with
 * Argon2's 19 MiB of WebAssembly memory, so an idle portal keeps none of them. They do not
 * keep the process alive while idle.
 */
import { Worker } from "node:worker_threads";
import { unavailable } from "../refusal.ts";
import type { PasswordAnswer, PasswordJob } from "./password_worker.ts";

/** Size of a pool. */
interface PoolSize {
  /** Worker threads. */
  workers: number;
  /** Jobs that may wait for a thread; one more is refused. */
  queue: number;
  /** `first` jobs that may wait (default: `queue`). */
  firstQueue?: number;
  /** Milliseconds a thread may stay without work before it ends (default {@link IDLE_MS}). */
  idleMs?: number;
}

/**
 * How long an idle thread is kept: long enough that a burst of sign-ins reuses warm threads
 * (starting one costs tens of milliseconds), short enough that an idle portal gives the
 * memory back soon after.
 */
const IDLE_MS = 10_000;

/**
 * Default: one thread per core but one (at least 1, at most 4), 16 waiting jobs per thread, and
 * 64 `first` ones (a few seconds of work): a burst of sign-ins to distinct accounts waits rather
 * than being refused, since each account goes `first` only until someone fails on it.
 */
function defaultPoolSize(): PoolSize {
  const cores = navigator.hardwareConcurrency || 2;
  const workers = Math.max(1, Math.min(4, cores - 1));
  return { workers, queue: 16 * workers, firstQueue: 64 * workers, idleMs: IDLE_MS };
}

/** A job without its id. */
type PasswordTask =
  | { op: "hash"; password: string }
  | { op: "verify"; password: string; hash: string };

type Job = { job: PasswordJob; resolve: (v: string | boolean) => void; reject: (e: Error) => void };

/** Which queue a job waits in: `first` ones start before any `later` one. */
export type PasswordLane = "first" | "later";

/** The pool: `run` a job, `close` the threads. */
export interface PasswordPool {
  run(job: PasswordTask, lane?: PasswordLane): Promise<string | boolean>;
  /** True when a job would start at once (a thread is free or may start, none waits). */
  free(): boolean;
  /** Threads alive now (busy or idle). */
  threads(): number;
  close(): Promise<void>;
}

/** Starts a pool (threads are started on first use). */
export function createPasswordPool(size: PoolSize = defaultPoolSize()): PasswordPool {
  const idle: Worker[] = [];
  const all: Worker[] = [];
  // Two queues: `first` jobs are taken before any `later` one.
  const first: Job[] = [];
  const waiting: Job[] = [];
  const running = new Map<number, Job>();
  const current = new Map<Worker, number>();
  const idleTimers = new Map<Worker, ReturnType<typeof setTimeout>>();
  const idleMs = size.idleMs ?? IDLE_MS;
  let seq = 0;

  /** Takes `w` out of the pool (it died or idled out). */
  const forget = (w: Worker) => {
    const timer = idleTimers.get(w);
    if (timer !== undefined) clearTimeout(timer);
    idleTimers.delete(w);
    if (all.includes(w)) all.splice(all.indexOf(w), 1);
    if (idle.includes(w)) idle.splice(idle.indexOf(w), 1);
  };

  const spawn = () => {
    const w = new Worker(new URL("./password_worker.ts", import.meta.url));
    w.on("message", (a: PasswordAnswer) => {
      const job = running.get(a.id);
      running.delete(a.id);
      current.delete(w);
      if (job) "error" in a ? job.reject(new Error(a.error)) : job.resolve(a.value);
      next(w);
    });
    // A thread that dies fails its job and leaves the pool; the next job starts a new one.
    w.on("error", (e: unknown) => {
      const id = current.get(w);
      const job = id === undefined ? undefined : running.get(id);
      if (id !== undefined) running.delete(id);
      current.delete(w);
      forget(w);
      job?.reject(e instanceof Error ? e : new Error(String(e)));
      const more = first.length + waiting.length > 0 && all.length < size.workers;
      if (more) next(spawn());
    });
    w.unref();
    all.push(w);
    return w;
  };

  const next = (w: Worker) => {
    const job = first.shift() ?? waiting.shift();
    if (!job) {
      w.unref();
      idle.push(w);
      const timer = setTimeout(() => {
        forget(w);
        w.terminate().catch(() => {});
      }, idleMs);
      // Deno's global setTimeout answers a number (the node types in scope say otherwise).
      Deno.unrefTimer(Number(timer));
      idleTimers.set(w, timer);
      return;
    }
    const timer = idleTimers.get(w);
    if (timer !== undefined) clearTimeout(timer);
    idleTimers.delete(w);
    running.set(job.job.id, job);
    current.set(w, job.job.id);
    w.ref();
    w.postMessage(job.job);
  };

  return {
    run(job, lane = "later") {
      return new Promise((resolve, reject) => {
        const w = idle.pop() ?? (all.length < size.workers ? spawn() : null);
        const entry: Job = { job: { ...job, id: ++seq } as PasswordJob, resolve, reject };
        const queue = lane === "first" ? first : waiting;
        if (w) {
          queue.unshift(entry);
          return next(w);
        }
        const bound = lane === "first" ? size.firstQueue ?? size.queue : size.queue;
        if (queue.length >= bound) return reject(unavailable("errors.busy"));
        queue.push(entry);
      });
    },
    free: () =>
      first.length + waiting.length === 0 && (idle.length > 0 || all.length < size.workers),
    threads: () => all.length,
    async close() {
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      await Promise.all(all.map((w) => w.terminate()));
      all.length = 0;
      idle.length = 0;
    },
  };
}
