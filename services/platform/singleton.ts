/**
 * Scheduled work that runs in one process at a time however many portals share the store
 * (issue 33): the process holding the job's lease (db/leases.ts, kept in KV) runs it; the
 * lease is renewed every tick while held, also while the job runs, and taken over by another
 * process once it ends unrenewed (a dead holder): within {@link LEASE_MS} plus one tick.
 *
 * When the job runs is kept in the store too (`claimRun`: the next due time, moved in a commit
 * fenced by the holder's token), so a restart or a takeover neither repeats nor postpones a
 * run, and a holder that lost the lease without knowing (paused past its lease) is refused the
 * claim and does not run. Each job is also idempotent on its own (see ARCHITECTURE.md); a job
 * whose writes must not come from a stale holder checks `fence.check()` in its commits.
 */
import type { Deps } from "../deps.ts";
import { acquireLease, claimRun, fenceCheck, releaseLease } from "../../db/leases.ts";

/** How long a lease lasts unless renewed: a dead holder's job moves within about this long. */
export const LEASE_MS = 30_000;
/** How often the lease is renewed and the schedule looked at. */
const TICK_MS = 10_000;

/** Options of {@link runAsSingleton}. */
export interface SingletonOptions {
  leaseMs?: number;
  tickMs?: number;
  /** The job runs when this process first holds the lease, due or not (a start-up run). */
  atStart?: boolean;
  /** With no schedule in the store yet, the first run is one interval away, not now. */
  firstAfterInterval?: boolean;
  /** This process's name in the lease (a fresh random one by default). */
  holder?: string;
}

/** What a running job is given to fence its writes. */
export interface Fence {
  /** The lease's token when the job started. */
  token: number;
  /** A check to add to a commit that only the current holder may make (null: lease lost). */
  check(): Promise<Deno.AtomicCheck | null>;
}

/** A singleton job's schedule in this process. */
export interface Singleton {
  /** Whether this process holds the lease now. */
  holds(): boolean;
  /** Stops: waits for a run under way, then gives the lease up for another process. */
  stop(): Promise<void>;
}

/** Runs `job` every `everyMs` in whichever one process holds the lease `name`. */
export function runAsSingleton(
  deps: Pick<Deps, "kv" | "now" | "log">,
  name: string,
  everyMs: number,
  job: (fence: Fence) => Promise<void>,
  o: SingletonOptions = {},
): Singleton {
  const holder = o.holder ?? crypto.randomUUID();
  const leaseMs = o.leaseMs ?? LEASE_MS;
  let token: number | null = null;
  let started = false;
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake = () => {};
  const fail = (what: string) => (e: unknown) => {
    deps.log.log("error", what, { job: name, error: String(e) });
  };

  const tick = async () => {
    const lease = await acquireLease(deps.kv, name, holder, deps.now(), leaseMs)
      .catch((e) => (fail("lease not renewed")(e), null));
    token = lease?.token ?? null;
    if (!lease || running || stopped) return;
    const atStart = o.atStart === true && !started;
    started = true;
    const go = await claimRun(deps.kv, name, lease.token, deps.now(), everyMs, {
      atStart,
      firstAfterInterval: o.firstAfterInterval,
    }).catch((e) => (fail("schedule not read")(e), false));
    if (!go || stopped) return;
    const fence: Fence = {
      token: lease.token,
      check: () => fenceCheck(deps.kv, name, lease.token),
    };
    running = job(fence).catch(fail("scheduled job failed")).finally(() => (running = null));
  };

  const loop = (async () => {
    while (!stopped) {
      await tick();
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, o.tickMs ?? TICK_MS);
      });
    }
  })();

  return {
    holds: () => token !== null,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake();
      await loop;
      await running;
      if (token !== null) {
        await releaseLease(deps.kv, name, holder, token).catch(fail("lease not given up"));
        token = null;
      }
    },
  };
}
