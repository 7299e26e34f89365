/**
 * Failed sign-in counters in Deno KV, per account, per address, and per account from one
 * address. An attempt is reserved (counted as a failure) before the password is verified,
 * atomically, so parallel guesses cannot pass the limit; a success takes it back. Past a few
 * free failures each counter asks for a growing wait before the next attempt (a progressive
 * delay, never a lock): the account's own wait stays short, so its owner gets in from another
 * place while a guesser's address waits longer and longer.
 *
 * Registrations are counted per address the same way. A refusal for capacity (the password
 * queue is full) is not a failure: its reservation is taken back whole.
 *
 * Key layout: `["login_fail", "email", email]`, `["login_fail", "ip", address]`,
 * `["login_fail", "pair", email, address]`, `["register_fail", "ip", address]` →
 * {@link FailCount}, expiring after the window.
 */

/** Failures counted on one key. */
interface FailCount {
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
  /** Failed registrations (a wrong or used code, a taken e-mail) without a wait, per address. */
  freeRegistrationsPerAddress: number;
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
 * Default: 5 free failures per account (from one address or from all), 20 per address, 10
 * failed registrations per address; then 1 s, doubling up to 15 minutes per address and 30
 * seconds per account; forgotten after 15 minutes without a failure.
 */
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  freePerPair: 5,
  freePerAccount: 5,
  freePerAddress: 20,
  freeRegistrationsPerAddress: 10,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  maxAccountDelayMs: 30_000,
  windowMs: 15 * 60_000,
};

/** One counter: its key, its free failures and its longest wait. */
interface Counter {
  key: Deno.KvKey;
  free: number;
  max: number;
}

const loginCounters = (email: string, ip: string, p: ThrottlePolicy) => ({
  email: { key: ["login_fail", "email", email], free: p.freePerAccount, max: p.maxAccountDelayMs },
  ip: { key: ["login_fail", "ip", ip], free: p.freePerAddress, max: p.maxDelayMs },
  pair: { key: ["login_fail", "pair", email, ip], free: p.freePerPair, max: p.maxDelayMs },
});

const registerCounter = (ip: string, p: ThrottlePolicy): Counter => ({
  key: ["register_fail", "ip", ip],
  free: p.freeRegistrationsPerAddress,
  max: p.maxDelayMs,
});

/** The wait after the `count`-th failure. */
function delay(count: number, c: Counter, base: number): number {
  return count < c.free ? 0 : Math.min(base * 2 ** Math.min(count - c.free, 30), c.max);
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

/**
 * The outcome of a reservation: go ahead (`before`: each counter's failures before this one),
 * or wait this many milliseconds.
 */
type Reservation = { ok: true; before: number[] } | { ok: false; retryAfterMs: number };

/** Refused with the longest wait any counter asks for, else one failure more on each, at once. */
function reserve(
  kv: Deno.Kv,
  counters: Counter[],
  now: number,
  policy: ThrottlePolicy,
): Promise<Reservation> {
  return serially(async () => {
    for (;;) {
      const entries = await kv.getMany<FailCount[]>(counters.map((c) => c.key));
      let wait = 0;
      for (const e of entries) {
        const v = live(e.value, now, policy);
        if (v) wait = Math.max(wait, v.next_at - now);
      }
      if (wait > 0) return { ok: false, retryAfterMs: wait };
      let op = kv.atomic();
      const before = entries.map((e) => live(e.value, now, policy)?.count ?? 0);
      counters.forEach((c, i) => {
        const count = before[i] + 1;
        const next: FailCount = {
          count,
          last_at: now,
          next_at: now + delay(count, c, policy.baseDelayMs),
        };
        op = op.check(entries[i]).set(c.key, next, { expireIn: policy.windowMs + c.max });
      });
      if ((await op.commit()).ok) return { ok: true, before };
    }
  });
}

/** Takes one reserved failure back from each of `counters`, and forgets the `forget` keys. */
function giveBack(
  kv: Deno.Kv,
  counters: Counter[],
  forget: Deno.KvKey[],
  policy: ThrottlePolicy,
): Promise<void> {
  return serially(async () => {
    for (;;) {
      const entries = await kv.getMany<FailCount[]>(counters.map((c) => c.key));
      let op = kv.atomic();
      for (const k of forget) op = op.delete(k);
      counters.forEach((counter, i) => {
        const cur = entries[i];
        op = op.check(cur);
        if (!cur.value) return;
        const count = cur.value.count - 1;
        op = count > 0
          ? op.set(counter.key, {
            count,
            last_at: cur.value.last_at,
            next_at: cur.value.last_at + delay(count, counter, policy.baseDelayMs),
          }, { expireIn: policy.windowMs + counter.max })
          : op.delete(counter.key);
      });
      if ((await op.commit()).ok) return;
    }
  });
}

/** A sign-in reservation: go ahead (`accountFailures` before this one), or wait. */
type AttemptReservation =
  | { ok: true; accountFailures: number }
  | { ok: false; retryAfterMs: number };

/**
 * Reserves one sign-in attempt for the account from the address: refused with the wait when
 * any of its counters asks for one, else counted as a failure on all three at once.
 */
export async function reserveAttempt(
  kv: Deno.Kv,
  email: string,
  ip: string,
  now: number,
  policy: ThrottlePolicy,
): Promise<AttemptReservation> {
  const c = loginCounters(email, ip, policy);
  const r = await reserve(kv, [c.email, c.ip, c.pair], now, policy);
  return r.ok ? { ok: true, accountFailures: r.before[0] } : r;
}

/** A reserved attempt was never checked (no capacity): its failure is taken back from all three. */
export function cancelAttempt(
  kv: Deno.Kv,
  email: string,
  ip: string,
  policy: ThrottlePolicy,
): Promise<void> {
  const c = loginCounters(email, ip, policy);
  return giveBack(kv, [c.email, c.ip, c.pair], [], policy);
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
  const c = loginCounters(email, ip, policy);
  return giveBack(kv, [c.ip], [c.email.key, c.pair.key], policy);
}

/** Reserves one registration from the address (counted as failed until it succeeds). */
export async function reserveRegistration(
  kv: Deno.Kv,
  ip: string,
  now: number,
  policy: ThrottlePolicy,
): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
  const r = await reserve(kv, [registerCounter(ip, policy)], now, policy);
  return r.ok ? { ok: true } : r;
}

/** A reserved registration succeeded, or was never tried (no capacity): its failure is taken back. */
export function settleRegistration(kv: Deno.Kv, ip: string, policy: ThrottlePolicy): Promise<void> {
  return giveBack(kv, [registerCounter(ip, policy)], [], policy);
}
