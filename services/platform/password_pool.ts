/**
 * A small pool of worker threads for Argon2id, with a bounded queue: a job beyond the bound is
 * refused at once (`unavailable`, answered 503 with Retry-After) instead of stalling everyone.
 * The threads do not keep the process alive while idle.
 */
import { Worker } from "node:worker_threads";
import { unavailable } from "../refusal.ts";
import type { PasswordAnswer, PasswordJob } from "./password_worker.ts";

/** Size of a pool. */
export interface PoolSize {
  /** Worker threads. */
  workers: number;
  /** Jobs that may wait for a thread; one more is refused. */
  queue: number;
}

/** Default: one thread per core but one (at least 1, at most 4), 16 waiting jobs per thread. */
export function defaultPoolSize(): PoolSize {
  const cores = navigator.hardwareConcurrency || 2;
  const workers = Math.max(1, Math.min(4, cores - 1));
  return { workers, queue: 16 * workers };
}

/** A job without its id. */
export type PasswordTask =
  | { op: "hash"; password: string }
  | { op: "verify"; password: string; hash: string };

type Job = { job: PasswordJob; resolve: (v: string | boolean) => void; reject: (e: Error) => void };

/** The pool: `run` a job, `close` the threads. */
export interface PasswordPool {
  run(job: PasswordTask): Promise<string | boolean>;
  close(): Promise<void>;
}

/** Starts a pool (threads are started on first use). */
export function createPasswordPool(size: PoolSize = defaultPoolSize()): PasswordPool {
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const waiting: Job[] = [];
  const running = new Map<number, Job>();
  const current = new Map<Worker, number>();
  let seq = 0;

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
      all.splice(all.indexOf(w), 1);
      job?.reject(e instanceof Error ? e : new Error(String(e)));
      const more = waiting.length > 0 && all.length < size.workers;
      if (more) next(spawn());
    });
    w.unref();
    all.push(w);
    return w;
  };

  const next = (w: Worker) => {
    const job = waiting.shift();
    if (!job) {
      w.unref();
      idle.push(w);
      return;
    }
    running.set(job.job.id, job);
    current.set(w, job.job.id);
    w.ref();
    w.postMessage(job.job);
  };

  return {
    run(job) {
      return new Promise((resolve, reject) => {
        const w = idle.pop() ?? (all.length < size.workers ? spawn() : null);
        const entry: Job = { job: { ...job, id: ++seq } as PasswordJob, resolve, reject };
        if (w) {
          waiting.unshift(entry);
          return next(w);
        }
        if (waiting.length >= size.queue) return reject(unavailable("errors.busy"));
        waiting.push(entry);
      });
    },
    async close() {
      await Promise.all(all.map((w) => w.terminate()));
      all.length = 0;
      idle.length = 0;
    },
  };
}
