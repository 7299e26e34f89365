/**
 * The SQLite store's writer moved to a worker thread, so writing (raw rows, rollups)
 * runs beside the caller's thread instead of on it: batches travel as one transferred
 * Float64Array (see `packSamples()`), requests are answered in order. Reads stay on the
 * caller's own connection (WAL lets them run while the worker writes).
 */
import type { PackedBatch } from "./_samples.ts";
import type { WorkerRequest } from "./_sqlite_worker.ts";
import { TelemetryUnavailableError } from "./mod.ts";

type Request = WorkerRequest extends infer R ? R extends unknown ? Omit<R, "id"> : never : never;

interface Answer {
  id: number;
  ok: boolean;
  value?: number | null;
  name?: string;
  message?: string;
}

/** The errors a worker's answer may name, rebuilt as themselves. */
const ERROR_TYPES: Record<string, new (message: string) => Error> = {
  TypeError,
  RangeError,
  TelemetryUnavailableError,
};

/** A writer in a worker thread with the same operations as SqliteWriter, asynchronous. */
export class WorkerWriter {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (v: number) => void; reject: (e: Error) => void }
  >();
  #next = 1;
  #failure: Error | null = null;

  /**
   * Starts the worker on a database file (the file and its schema must exist); `identity` is
   * the file's (`fileIdentity()`), checked before each write.
   */
  constructor(path: string, identity: string) {
    this.#worker = new Worker(new URL("./_sqlite_worker.ts", import.meta.url).href, {
      type: "module",
    });
    this.#worker.onmessage = (e: MessageEvent<Answer>) => this.#answer(e.data);
    this.#worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#fail(new Error(`telemetry writer worker failed: ${e.message}`));
    };
    this.#call({ op: "open", path, identity }).catch((err) => this.#fail(err)); // fails every later call
  }

  /**
   * Journals packed batches as one batch (durable once it resolves; their buffers move to the
   * worker, not copied nor joined here); resolves with its size.
   */
  write(parts: PackedBatch[]): Promise<number> {
    return this.#call({ op: "write", parts }, parts.map((p) => p.data.buffer));
  }

  /** Merges the journal into what queries read; resolves with the samples merged. */
  merge(): Promise<number> {
    return this.#call({ op: "merge" });
  }

  /** Prunes raw rows before `cutoff`; resolves with the rows deleted. */
  prune(cutoff: number): Promise<number> {
    return this.#call({ op: "prune", cutoff });
  }

  /** Writes one small row: rejects when the database cannot be written. */
  probe(): Promise<number> {
    return this.#call({ op: "probe" });
  }

  /** Closes the worker's connection and ends the worker. */
  async close(): Promise<void> {
    try {
      if (!this.#failure) await this.#call({ op: "close" });
    } finally {
      this.#worker.terminate();
      this.#fail(new TypeError("the telemetry store is closed"));
    }
  }

  #call(req: Request, transfer: Transferable[] = []): Promise<number> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise<number>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...req, id }, transfer);
    });
  }

  #answer(a: Answer): void {
    const waiting = this.#pending.get(a.id);
    if (!waiting) return;
    this.#pending.delete(a.id);
    if (a.ok) waiting.resolve(a.value ?? 0);
    else {
      const ErrorType = ERROR_TYPES[a.name ?? ""] ?? Error;
      waiting.reject(new ErrorType(a.message ?? "telemetry write failed"));
    }
  }

  #fail(err: Error): void {
    this.#failure ??= err;
    for (const { reject } of this.#pending.values()) reject(err);
    this.#pending.clear();
  }
}
