/**
 * Failed sign-in counters in Deno KV, per account, per address, and per account from one
 * address. An attempt is reserved (counted as a failure) before the password is verified,
 * atomically, so parallel guesses cannot pass the limit; a success takes it back. Past a few
 * free failures each counter asks for a growing wait before the next attempt (a progressive
 * delay, never a lock): the account's own wait stays short, so its owner gets in from another
 * place while a guesser's address waits longer and longer.
 *
 * Key layout: `["login_fail", "email", email]`, `["login_fail", "ip", address]`,
 * `["login_fail", "pair", email, address]` → {@link FailCount}, expiring after the window.
 */

/** Failures counted on one key. */
export interface FailCount {
  count: number;
  /** When the last failure was counted (epoch ms). */
  last_at: number;
  /** No attempt before this time (epoch ms). */
  next_at: number;
}

/** The throttle's policy. */
export interface ThrottlePolicy {
  /** Failures without a wait, per account from one address. */
  freePerPair: number;
  /** Failures without a wait, per account from any address. */
  freePerAccount: number;
  /** Failures without a wait, per address over all accounts. */
  freePerAddress: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  /** Longest wait for one account from one address, and for one address. */
  maxDelayMs: number;
  /** Longest wait for an account from anywhere (what its owner may have to wait). */
  maxAccountDelayMs: number;
  /** Counters are forgotten this long after their last failure. */
  windowMs: number;
}

/**
 * Default: 5 free failures per account (from one address or from all), 20 per address; then
 * 1 s, doubling up to 15 minutes per address and 30 seconds per account; forgotten after 15
 * minutes without a failure.
 */
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  freePerPair: 5,
  freePerAccount: 5,
  freePerAddress: 20,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  maxAccountDelayMs: 30_000,
  windowMs: 15 * 60_000,
};

type Kind = "email" | "ip" | "pair";

const keys = (email: string, ip: string) => ({
  email: ["login_fail", "email", email],
  ip: ["login_fail", "ip", ip],
  pair: ["login_fail", "pair", email, ip],
});

function limits(policy: ThrottlePolicy, kind: Kind): { free: number; max: number } {
  if (kind === "email") return { free: policy.freePerAccount, max: policy.maxAccountDelayMs };
  if (kind === "ip") return { free: policy.freePerAddress, max: policy.maxDelayMs };
  return { free: policy.freePerPair, max: policy.maxDelayMs };
}

/** The wait after the `count`-th failure. */
function delay(count: number, free: number, max: number, base: number): number {
  return count < free ? 0 : Math.min(base * 2 ** Math.min(count - free, 30), max);
}

const live = (v: FailCount | null, now: number, policy: ThrottlePolicy) =>
  v && now - v.last_at < policy.windowMs ? v : null;

// Reservations of this process run one at a time, so parallel attempts do not spin on
// version conflicts; the atomic check still guards against other processes.
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => {});
  return run;
}

/** The outcome of a reservation: go ahead, or wait this many milliseconds. */
export type Reservation = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Reserves one sign-in attempt for the account from the address: refused with the wait when
 * any counter asks for one, else counted as a failure on all three counters at once.
 */
export function reserveAttempt(
  kv: Deno.Kv,
  email: string,
  ip: string,
  now: number,
  policy: ThrottlePolicy,
): Promise<Reservation> {
  return serially(async () => {
    const k = keys(email, ip);
    const kinds: Kind[] = ["email", "ip", "pair"];
    for (;;) {
      const entries = await kv.getMany<FailCount[]>(kinds.map((kind) => k[kind]));
      let wait = 0;
      for (const e of entries) {
        const v = live(e.value, now, policy);
        if (v) wait = Math.max(wait, v.next_at - now);
      }
      if (wait > 0) return { ok: false, retryAfterMs: wait };
      let op = kv.atomic();
      kinds.forEach((kind, i) => {
        const count = (live(entries[i].value, now, policy)?.count ?? 0) + 1;
        const { free, max } = limits(policy, kind);
        const next: FailCount = {
          count,
          last_at: now,
          next_at: now + delay(count, free, max, policy.baseDelayMs),
        };
        op = op.check(entries[i]).set(k[kind], next, { expireIn: policy.windowMs + max });
      });
      if ((await op.commit()).ok) return { ok: true };
    }
  });
}

/**
 * A reserved attempt had the right password: the account's counters are cleared and the
 * address's failure taken back.
 */
export function settleSuccess(
  kv: Deno.Kv,
  email: string,
  ip: string,
  policy: ThrottlePolicy,
): Promise<void> {
  return serially(async () => {
    const k = keys(email, ip);
    for (;;) {
      const cur = await kv.get<FailCount>(k.ip);
      let op = kv.atomic().check(cur).delete(k.email).delete(k.pair);
      if (cur.value) {
        const count = cur.value.count - 1;
        const { free, max } = limits(policy, "ip");
        op = count > 0
          ? op.set(k.ip, {
            count,
            last_at: cur.value.last_at,
            next_at: cur.value.last_at + delay(count, free, max, policy.baseDelayMs),
          }, { expireIn: policy.windowMs + max })
          : op.delete(k.ip);
      }
      if ((await op.commit()).ok) return;
    }
  });
}
