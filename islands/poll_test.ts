import assert from "node:assert/strict";
import { type PollEnv, startPoll } from "./poll.ts";

/** A fake clock and page visibility. */
function fakeEnv() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const listeners = new Set<() => void>();
  const state = { hidden: false };
  const env: PollEnv = {
    setTimeout(fn, ms) {
      timers.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (id) => void timers.delete(id as number),
    hidden: () => state.hidden,
    onVisibilityChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  /** Moves the clock forward, firing due timers in order. */
  const advance = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = [...timers.entries()].filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      timers.delete(next[0]);
      now = next[1].at;
      next[1].fn();
      await Promise.resolve();
    }
    now = end;
    await new Promise((r) => setTimeout(r, 0));
  };
  const setHidden = (h: boolean) => {
    state.hidden = h;
    for (const fn of listeners) fn();
  };
  return { env, advance, setHidden, timers, listeners };
}

Deno.test("startPoll() runs first after firstDelayMs, then every interval", async () => {
  const f = fakeEnv();
  let runs = 0;
  const p = startPoll(
    () => Promise.resolve(void runs++),
    { intervalMs: 1000, firstDelayMs: 100 },
    f.env,
    () => {},
  );
  await f.advance(99);
  assert.equal(runs, 0);
  await f.advance(1);
  assert.equal(runs, 1);
  await f.advance(2000);
  assert.equal(runs, 3);
  p.stop();
  await f.advance(5000);
  assert.equal(runs, 3, "no run after stop");
  assert.equal(f.timers.size, 0);
  assert.equal(f.listeners.size, 0);
});

Deno.test("startPoll() without firstDelayMs waits one interval (the page came with fresh values)", async () => {
  const f = fakeEnv();
  let runs = 0;
  const p = startPoll(() => Promise.resolve(void runs++), { intervalMs: 1000 }, f.env, () => {});
  await f.advance(999);
  assert.equal(runs, 0);
  await f.advance(1);
  assert.equal(runs, 1);
  p.stop();
});

Deno.test("startPoll() skips runs while hidden and catches up at once when shown", async () => {
  const f = fakeEnv();
  let runs = 0;
  const p = startPoll(() => Promise.resolve(void runs++), { intervalMs: 1000 }, f.env, () => {});
  f.setHidden(true);
  await f.advance(5000);
  assert.equal(runs, 0, "no run in a background tab");
  f.setHidden(false);
  await f.advance(0);
  assert.equal(runs, 1, "one run when the tab shows again");
  await f.advance(1000);
  assert.equal(runs, 2, "then the interval again");
  p.stop();
});

Deno.test("startPoll() reports errors and clears them after a good run; refresh() runs now", async () => {
  const f = fakeEnv();
  const results: unknown[] = [];
  let fail = true;
  const p = startPoll(
    () => fail ? Promise.reject(new Error("502")) : Promise.resolve(),
    { intervalMs: 1000 },
    f.env,
    (e) => results.push(e),
  );
  await f.advance(1000);
  assert.equal((results[0] as Error).message, "502");
  fail = false;
  p.refresh();
  await f.advance(0);
  assert.deepEqual(results.slice(1), [null]);
  p.stop();
});

Deno.test("startPoll() aborts the run in flight on stop and reports nothing for it", async () => {
  const f = fakeEnv();
  const results: unknown[] = [];
  let seen: AbortSignal | null = null;
  const p = startPoll(
    (signal) => {
      seen = signal;
      return new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason))
      );
    },
    { intervalMs: 1000, firstDelayMs: 0 },
    f.env,
    (e) => results.push(e),
  );
  await f.advance(0);
  assert.ok(seen && !(seen as AbortSignal).aborted);
  p.stop();
  await f.advance(0);
  assert.ok((seen as AbortSignal | null)?.aborted);
  assert.deepEqual(results, []);
});

Deno.test("startPoll() refuses an interval of 0", () => {
  assert.throws(
    () => startPoll(() => Promise.resolve(), { intervalMs: 0 }, fakeEnv().env, () => {}),
    RangeError,
  );
});
