/**
 * Polling for React islands: {@link usePoll} runs a {@link startPoll} while the island is
 * mounted and keeps the last error in state.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { browserEnv, type Poll, type PollOptions, type PollTask, startPoll } from "./poll.ts";

/** State of a poll in an island. */
interface PollState {
  /** The error of the last run, null after a successful one (and before the first). */
  error: unknown;
  /** Runs the task now and restarts the interval. */
  refresh: () => void;
}

/**
 * Polls `task` while the island is mounted (see {@link PollOptions}). The task may change
 * between renders (the latest one runs); the poll restarts when `key` changes (the id of
 * what is polled).
 */
export function usePoll(task: PollTask, opts: PollOptions, key: unknown = null): PollState {
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(task);
  latest.current = task;
  const poll = useRef<Poll | null>(null);
  const { intervalMs, firstDelayMs, pauseWhenHidden } = opts;
  useEffect(() => {
    const p = startPoll(
      (signal) => latest.current(signal),
      { intervalMs, firstDelayMs, pauseWhenHidden },
      browserEnv,
      setError,
    );
    poll.current = p;
    return () => {
      p.stop();
      poll.current = null;
    };
  }, [intervalMs, firstDelayMs, pauseWhenHidden, key]);
  const refresh = useCallback(() => poll.current?.refresh(), []);
  return { error, refresh };
}
