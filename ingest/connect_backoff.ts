/**
 * Backoff of failed MQTT CONNECTs per address and per username from one address (the broker
 * makes the keys; pure: time is a parameter).
 * After a few free failures each attempt on a key waits for its turn: turns are spaced by a
 * delay that doubles with every further failure up to a maximum, so parallel guesses queue up
 * instead of running at once; an attempt whose turn is more than `maxMs` away is refused at
 * once unchecked (the queue, and the wait of the right password behind it, stay bounded). A
 * success clears its key's failures; failures are forgotten after `forgetMs` without one. At most `maxKeys` keys are kept (the oldest go
 * first), so memory stays bounded under a flood of names or addresses.
 */

/** Settings of {@link ConnectBackoff}. */
interface BackoffPolicy {
  /** Failures of a key before any delay. */
  free: number;
  /** Delay after the first failure beyond the free ones (ms); doubles with each next one. */
  baseMs: number;
  /** Largest delay between two attempts on one key (ms). */
  maxMs: number;
  /** A key without failures for this long starts over (ms). */
  forgetMs: number;
  /** Keys kept at most. */
  maxKeys: number;
}

/** Per username from one address (the key is both). */
export const USERNAME_BACKOFF: BackoffPolicy = {
  free: 3,
  baseMs: 250,
  maxMs: 5_000,
  forgetMs: 15 * 60_000,
  maxKeys: 10_000,
};

/** Per address, over all usernames. */
export const ADDRESS_BACKOFF: BackoffPolicy = {
  free: 10,
  baseMs: 100,
  maxMs: 5_000,
  forgetMs: 15 * 60_000,
  maxKeys: 10_000,
};

interface Entry {
  failures: number;
  /** Epoch ms of the last failure. */
  lastFail: number;
  /** Epoch ms before which the next attempt waits. */
  nextAt: number;
}

/** Failures and turns of one kind of key (usernames or addresses). */
export class ConnectBackoff {
  readonly #entries = new Map<string, Entry>();
  constructor(readonly policy: BackoffPolicy) {}

  /** Keys held now. */
  get size(): number {
    return this.#entries.size;
  }

  #live(key: string, now: number): Entry | null {
    const e = this.#entries.get(key);
    if (e && now - e.lastFail > this.policy.forgetMs) {
      this.#entries.delete(key);
      return null;
    }
    return e ?? null;
  }

  #step(failures: number): number {
    const over = failures - this.policy.free;
    if (over <= 0) return 0;
    return Math.min(this.policy.maxMs, this.policy.baseMs * 2 ** Math.min(over - 1, 30));
  }

  /**
   * Reserves the next turn of `key`: how long (ms) this attempt must wait before it is checked,
   * or null when the turn is too far away (refuse it unchecked).
   */
  reserve(key: string, now: number): number | null {
    const e = this.#live(key, now);
    if (!e) return 0;
    const step = this.#step(e.failures);
    if (step === 0) return 0;
    const at = Math.max(now, e.nextAt);
    if (at - now > this.policy.maxMs) return null;
    e.nextAt = at + step;
    return at - now;
  }

  /** Counts a failed attempt of `key`. */
  fail(key: string, now: number): void {
    const e = this.#live(key, now) ?? { failures: 0, lastFail: now, nextAt: now };
    e.failures++;
    e.lastFail = now;
    this.#entries.delete(key); // re-inserted last: the map's order is the eviction order
    this.#entries.set(key, e);
    while (this.#entries.size > this.policy.maxKeys) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** Forgets the failures of `key` (a successful attempt). */
  succeed(key: string): void {
    this.#entries.delete(key);
  }
}
