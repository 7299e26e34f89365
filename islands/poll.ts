/**
 * Polling in the browser, without React: run a task every `intervalMs`, optionally a first
 * time soon after start, skip runs while the tab is hidden (catching up at once when it
 * shows again), abort the run in flight on stop or when a newer run starts, and report each
 * result. {@link startPoll} takes its timers and visibility from a {@link PollEnv} (a fake
 * clock in tests, {@link browserEnv} in pages). React islands use it through `usePoll`
 * (`use_poll.ts`); plain-script islands call it directly.
 */

/** When and how often a poll runs. */
export interface PollOptions {
  /** Time between two runs. */
  intervalMs: number;
  /**
   * Delay of the first run after mount (100 ms on the dashboard). Left out, the first run
   * comes after one interval: the server rendered the page with fresh values.
   */
  firstDelayMs?: number;
  /** Skip runs while the tab is hidden and run at once when it shows again (default true). */
  pauseWhenHidden?: boolean;
}

/** A task of a poll: fetches with `signal` (aborted on unmount) and throws on failure. */
export type PollTask = (signal: AbortSignal) => Promise<void>;

/** What a poll needs from its surroundings (the browser's, or a fake one in tests). */
export interface PollEnv {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  /** Whether the page is hidden (a background tab). */
  hidden(): boolean;
  /** Calls `fn` on every visibility change; returns the unsubscribe function. */
  onVisibilityChange(fn: () => void): () => void;
}

/** A running poll. */
export interface Poll {
  /** Runs the task now and restarts the interval (a Retry button). */
  refresh(): void;
  /** Stops the timer, aborts the run in flight and stops listening. */
  stop(): void;
}

/**
 * Starts polling: `onResult(null)` after each successful run, `onResult(error)` after each
 * failed one (aborted runs report nothing).
 */
export function startPoll(
  task: PollTask,
  opts: PollOptions,
  env: PollEnv,
  onResult: (error: unknown) => void,
): Poll {
  if (!(opts.intervalMs > 0)) {
    throw new RangeError(`a poll's interval must be above 0 ms, got ${opts.intervalMs}`);
  }
  const pause = opts.pauseWhenHidden ?? true;
  let timer: unknown = undefined;
  let stopped = false;
  let missed = false;
  let inFlight: AbortController | null = null;

  const run = async () => {
    inFlight?.abort();
    const ctrl = new AbortController();
    inFlight = ctrl;
    try {
      await task(ctrl.signal);
      if (!ctrl.signal.aborted) onResult(null);
    } catch (e) {
      if (!ctrl.signal.aborted) onResult(e);
    } finally {
      if (inFlight === ctrl) inFlight = null;
    }
  };
  const schedule = (ms: number) => {
    if (timer !== undefined) env.clearTimeout(timer);
    timer = env.setTimeout(tick, ms);
  };
  const tick = () => {
    timer = undefined;
    if (stopped) return;
    if (pause && env.hidden()) {
      missed = true;
      return;
    }
    void run();
    schedule(opts.intervalMs);
  };
  const unlisten = pause
    ? env.onVisibilityChange(() => {
      if (stopped || env.hidden() || !missed) return;
      missed = false;
      tick();
    })
    : () => {};
  schedule(opts.firstDelayMs ?? opts.intervalMs);

  return {
    refresh() {
      if (stopped) return;
      missed = false;
      void run();
      schedule(opts.intervalMs);
    },
    stop() {
      stopped = true;
      if (timer !== undefined) env.clearTimeout(timer);
      timer = undefined;
      inFlight?.abort();
      unlisten();
    },
  };
}

/** The browser's timers and page visibility. */
export const browserEnv: PollEnv = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as number),
  hidden: () => document.visibilityState === "hidden",
  onVisibilityChange(fn) {
    document.addEventListener("visibilitychange", fn);
    return () => document.removeEventListener("visibilitychange", fn);
  },
};
