/**
 * The browser's log sent to the portal's `POST /logging` (spec 000 section 9): entries go out
 * one at a time at least {@link REMOTE_LOG}.spacingMs apart; a failed send is tried again after
 * retryDelayMs; after maxFailures failures in a row nothing is sent until the failure counter
 * is reset, failureResetMs later (the entries wait, the oldest dropped past the cap of
 * capEntries). Token-check messages go out at most once per tokenLogThrottleMs, and a fetch
 * answered 404 is logged for one in ten (notFoundSampleRate). Time, chance and the sending are
 * the caller's ({@link RemoteLogEnv}): the browser's in pages (`client_log.ts`), fake in tests.
 * Written here because no small library does this queue with the spec's constants.
 */

/** The spec's constants of the browser log. */
export const REMOTE_LOG = {
  capEntries: 500,
  spacingMs: 50,
  retryDelayMs: 5_000,
  maxFailures: 3,
  failureResetMs: 5 * 60_000,
  tokenLogThrottleMs: 30_000,
  notFoundSampleRate: 0.1,
} as const;

/** An entry as `POST /logging` takes it. */
export interface RemoteLogEntry {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  context: Record<string, unknown>;
}

/** What the log needs from its surroundings. */
export interface RemoteLogEnv {
  now(): number;
  /** A number in [0, 1). */
  random(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  /** Sends one entry; true when it is done with (kept, or refused for good), false to retry. */
  send(entry: RemoteLogEntry): Promise<boolean>;
}

/** The queue of entries on their way to the portal. */
export class RemoteLog {
  #env: RemoteLogEnv;
  #queue: RemoteLogEntry[] = [];
  #sending = false;
  #timer = false;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #failures = 0;
  #pausedAt = 0;
  #lastTokenLog = Number.NEGATIVE_INFINITY;

  constructor(env: RemoteLogEnv) {
    this.#env = env;
  }

  /** Entries waiting to be sent. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Queues an entry. */
  log(level: RemoteLogEntry["level"], message: string, context: Record<string, unknown> = {}) {
    this.#queue.push({ level, message: message.slice(0, 2000), context });
    if (this.#queue.length > REMOTE_LOG.capEntries) this.#queue.shift();
    this.#pump();
  }

  /** A message about checking the session: at most one per throttle time; true when queued. */
  tokenCheck(message: string, context: Record<string, unknown> = {}): boolean {
    const now = this.#env.now();
    if (now - this.#lastTokenLog < REMOTE_LOG.tokenLogThrottleMs) return false;
    this.#lastTokenLog = now;
    this.log("warn", message, context);
    return true;
  }

  /** A failed fetch: every one, except 404s, sampled; true when queued. */
  fetchError(status: number, url: string, context: Record<string, unknown> = {}): boolean {
    if (status === 404 && this.#env.random() >= REMOTE_LOG.notFoundSampleRate) return false;
    this.log("error", `HTTP error! status: ${status}`, { ...context, url });
    return true;
  }

  #later(ms: number) {
    if (this.#timer) return;
    this.#timer = true;
    this.#env.setTimeout(() => {
      this.#timer = false;
      this.#pump();
    }, ms);
  }

  async #pump(): Promise<void> {
    if (this.#sending || this.#timer || this.#queue.length === 0) return;
    const now = this.#env.now();
    if (this.#failures >= REMOTE_LOG.maxFailures) {
      const wait = this.#pausedAt + REMOTE_LOG.failureResetMs - now;
      if (wait > 0) return this.#later(wait);
      this.#failures = 0;
    }
    const wait = this.#lastSentAt + REMOTE_LOG.spacingMs - now;
    if (wait > 0) return this.#later(wait);
    this.#sending = true;
    this.#lastSentAt = now;
    const entry = this.#queue[0];
    let done = false;
    try {
      done = await this.#env.send(entry);
    } catch {
      done = false;
    }
    this.#sending = false;
    if (done) {
      if (this.#queue[0] === entry) this.#queue.shift();
      this.#failures = 0;
      return this.#pump();
    }
    this.#failures++;
    if (this.#failures >= REMOTE_LOG.maxFailures) {
      this.#pausedAt = this.#env.now();
      return this.#later(REMOTE_LOG.failureResetMs);
    }
    this.#later(REMOTE_LOG.retryDelayMs);
  }
}
