import assert from "node:assert/strict";
import { REMOTE_LOG, RemoteLog, type RemoteLogEntry } from "./remote_log.ts";

/** A fake clock and sink: `answers` says what each send answers (true when missing). */
function fake(answers: boolean[] = []) {
  let now = 0;
  let rand = 0.5;
  const timers: { at: number; fn: () => void }[] = [];
  const sent: { at: number; entry: RemoteLogEntry; ok: boolean }[] = [];
  const log = new RemoteLog({
    now: () => now,
    random: () => rand,
    setTimeout(fn, ms) {
      timers.push({ at: now + ms, fn });
    },
    send(entry) {
      const ok = answers.shift() ?? true;
      sent.push({ at: now, entry, ok });
      return Promise.resolve(ok);
    },
  });
  const advance = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      await new Promise((r) => setTimeout(r, 0));
      timers.sort((a, b) => a.at - b.at);
      if (!timers.length || timers[0].at > end) break;
      const t = timers.shift()!;
      now = t.at;
      t.fn();
      await new Promise((r) => setTimeout(r, 0));
    }
    now = end;
    await new Promise((r) => setTimeout(r, 0));
  };
  return { log, sent, advance, setRandom: (r: number) => rand = r };
}

Deno.test("the spec's constants of the browser log", () => {
  assert.deepEqual(REMOTE_LOG, {
    capEntries: 500,
    spacingMs: 50,
    retryDelayMs: 5000,
    maxFailures: 3,
    failureResetMs: 300_000,
    tokenLogThrottleMs: 30_000,
    notFoundSampleRate: 0.1,
  });
});

Deno.test("entries go out one at a time, 50 ms apart", async () => {
  const f = fake();
  for (let i = 0; i < 4; i++) f.log.log("info", `m${i}`);
  await f.advance(1000);
  assert.deepEqual(f.sent.map((s) => s.at), [0, 50, 100, 150]);
  assert.deepEqual(f.sent.map((s) => s.entry.message), ["m0", "m1", "m2", "m3"]);
  assert.equal(f.log.pending, 0);
});

Deno.test("a failed send is retried after 5 s; after 3 failures in a row nothing goes out for 5 minutes", async () => {
  const f = fake([false, false, false]);
  f.log.log("error", "boom");
  f.log.log("error", "second");
  await f.advance(4_999);
  assert.deepEqual(f.sent.map((s) => s.at), [0]);
  await f.advance(1);
  assert.deepEqual(f.sent.map((s) => s.at), [0, 5000]);
  await f.advance(5000);
  assert.equal(f.sent.length, 3);
  // Three failures in a row: quiet until the counter is reset five minutes later.
  await f.advance(REMOTE_LOG.failureResetMs - 1);
  assert.equal(f.sent.length, 3);
  assert.equal(f.log.pending, 2);
  await f.advance(100);
  assert.deepEqual(f.sent.slice(3).map((s) => s.entry.message), ["boom", "second"]);
  assert.equal(f.log.pending, 0);
});

Deno.test("token-check messages are throttled to one per 30 s; 404s are sampled at 10 %", async () => {
  const f = fake();
  assert.equal(f.log.tokenCheck("check failed"), true);
  assert.equal(f.log.tokenCheck("check failed"), false);
  await f.advance(29_999);
  assert.equal(f.log.tokenCheck("check failed"), false);
  await f.advance(1);
  assert.equal(f.log.tokenCheck("check failed"), true);
  f.setRandom(0.5);
  assert.equal(f.log.fetchError(404, "/x"), false);
  f.setRandom(0.05);
  assert.equal(f.log.fetchError(404, "/x"), true);
  f.setRandom(0.99);
  assert.equal(f.log.fetchError(500, "/y"), true);
  await f.advance(1000);
  assert.deepEqual(f.sent.map((s) => s.entry.message), [
    "check failed",
    "check failed",
    "HTTP error! status: 404",
    "HTTP error! status: 500",
  ]);
});

Deno.test("at most 500 entries wait; the oldest are dropped", async () => {
  const f = fake([false, false, false]);
  for (let i = 0; i < 600; i++) f.log.log("debug", `m${i}`);
  await f.advance(20_000);
  assert.equal(f.log.pending, 500);
});
