/**
 * Singleton jobs by lease (issue 33): two processes on one KV file run a scheduled job once
 * per interval between them; a holder that dies (stops renewing) is taken over within the
 * lease's time; a stale holder's fenced write is refused.
 */
import assert from "node:assert/strict";
import { runAsSingleton } from "../services/platform/singleton.ts";
import type { Logger } from "../services/platform/log.ts";
import { acquireLease, claimRun, fenceCheck, readLease } from "../db/leases.ts";

const log: Logger = { log() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` with two independent handles on one fresh KV file. */
async function twoHandles(fn: (a: Deno.Kv, b: Deno.Kv, path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  const a = await Deno.openKv(path);
  const b = await Deno.openKv(path);
  try {
    await fn(a, b, path);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a singleton job runs in one of two processes, once per interval", () =>
  twoHandles(async (a, b) => {
    const runs: { who: string; at: number }[] = [];
    const start = (kv: Deno.Kv, who: string) =>
      runAsSingleton({ kv, now: Date.now, log }, "job", 300, () => {
        runs.push({ who, at: Date.now() });
        return Promise.resolve();
      }, { leaseMs: 2_000, tickMs: 20, atStart: true });
    const t0 = Date.now();
    const one = start(a, "a");
    const two = start(b, "b");
    await sleep(1_500);
    await Promise.all([one.stop(), two.stop()]);
    const elapsed = Date.now() - t0;
    assert.ok(runs.length >= 3, `it ran (${runs.length} times)`);
    assert.equal(new Set(runs.map((r) => r.who)).size, 1, "in one process only");
    assert.ok(runs.length <= Math.floor(elapsed / 300) + 1, "at most once per interval");
    for (let i = 1; i < runs.length; i++) {
      // Each run is claimed at its due time; the job notes its start a commit later.
      assert.ok(runs[i].at - runs[i - 1].at >= 250, "never two runs within one interval");
    }
  }));

Deno.test("a job longer than its lease keeps the lease: no second process runs meanwhile", () =>
  twoHandles(async (a, b) => {
    const running: string[] = [];
    let overlap = false;
    const start = (kv: Deno.Kv, who: string) =>
      runAsSingleton({ kv, now: Date.now, log }, "slow", 50, async () => {
        if (running.length > 0) overlap = true;
        running.push(who);
        await sleep(1_200); // three leases long
        running.pop();
      }, { leaseMs: 400, tickMs: 30, atStart: true });
    const one = start(a, "a");
    const two = start(b, "b");
    await sleep(2_000);
    assert.equal(one.holds() !== two.holds(), true, "one holder");
    await Promise.all([one.stop(), two.stop()]);
    assert.equal(overlap, false);
  }));

Deno.test("a killed holder's job is taken over within the lease's time", () =>
  twoHandles(async (kv, _b, path) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./_lease_holder.ts", import.meta.url).pathname, "job", path],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    while (!said.includes("holding")) said += (await reader.read()).value ?? "";
    const here = runAsSingleton({ kv, now: Date.now, log }, "job", 100, async () => {
      await kv.set(["runs", "job", Date.now(), "here"], true);
    }, { leaseMs: 1_000, tickMs: 50 });
    try {
      await sleep(600);
      assert.equal(here.holds(), false, "the other process holds the lease");
      const childRuns = async () => {
        let n = 0;
        for await (const e of kv.list({ prefix: ["runs", "job"] })) if (e.key[3] === "child") n++;
        return n;
      };
      assert.ok(await childRuns() >= 3, "the holder runs the job");
      const before = (await readLease(kv, "job"))!.token;
      child.kill("SIGKILL");
      await child.status;
      const killedAt = Date.now();
      while (!here.holds() && Date.now() - killedAt < 5_000) await sleep(20);
      const took = Date.now() - killedAt;
      assert.ok(here.holds(), "taken over");
      assert.ok(took <= 1_000 + 700, `within the lease's time (${took} ms)`);
      assert.equal((await readLease(kv, "job"))!.token, before + 1, "with the next token");
      await sleep(400);
      let mine = 0;
      for await (const e of kv.list({ prefix: ["runs", "job"] })) if (e.key[3] === "here") mine++;
      assert.ok(mine >= 2, "the new holder runs the job");
    } finally {
      await here.stop();
      await reader.cancel().catch(() => {});
      try {
        child.kill("SIGKILL");
      } catch { /* already ended */ }
    }
  }));

Deno.test("a stale holder's fenced write is refused, and it may not claim a run", () =>
  twoHandles(async (a, b) => {
    const t = 1_000_000;
    const first = await acquireLease(a, "sweep", "a", t, 30_000);
    assert.equal(first?.token, 1);
    assert.equal(await acquireLease(b, "sweep", "b", t + 10_000, 30_000), null, "still held");
    const check = await fenceCheck(a, "sweep", 1);
    assert.ok(check);
    // Renewing keeps the token and the fence: a check taken before still holds.
    assert.equal((await acquireLease(a, "sweep", "a", t + 20_000, 30_000))?.token, 1);
    assert.ok((await a.atomic().check(check).set(["done"], "a1").commit()).ok);
    const again = (await fenceCheck(a, "sweep", 1))!;
    // "a" stops renewing (paused); its lease ends and "b" takes over.
    const taken = await acquireLease(b, "sweep", "b", t + 60_000, 30_000);
    assert.equal(taken?.token, 2);
    const stale = await a.atomic().check(again).set(["done"], "a2").commit();
    assert.equal(stale.ok, false, "the old holder's write is refused");
    assert.equal((await b.get(["done"])).value, "a1");
    assert.equal(await fenceCheck(a, "sweep", 1), null);
    assert.equal(await claimRun(a, "sweep", 1, t + 60_000, 1_000), false, "no run for it");
    assert.equal(await claimRun(b, "sweep", 2, t + 60_000, 1_000), true);
    // The old holder cannot renew into the new holder's lease either.
    assert.equal(await acquireLease(a, "sweep", "a", t + 61_000, 30_000), null);
  }));
