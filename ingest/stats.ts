/**
 * What ingest counts: messages received, samples stored, messages dropped by reason,
 * errors of the store, the status sink and the directory, and the rates over the last
 * minute (their shape is `core/ingest_health.ts`'s). Time is a parameter (arrival times), so
 * the counter is pure.
 */
import {
  DROP_REASONS,
  type DropReason,
  type ErrorKind,
  type IngestStats,
} from "../core/ingest_health.ts";

const SLOTS = 60;

/** Counters with a 60-second ring for the per-minute rates. */
export class StatsCounter {
  #received = 0;
  #stored = 0;
  #ignored = 0;
  #invalidFields = 0;
  #dropped = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>;
  #errors: Record<ErrorKind, number> = { store: 0, status: 0, directory: 0, internal: 0 };
  #second = new Float64Array(SLOTS).fill(-1);
  #ring = {
    received: new Float64Array(SLOTS),
    stored: new Float64Array(SLOTS),
    dropped: new Float64Array(SLOTS),
  };

  #slot(now: number): number {
    const second = Math.floor(now / 1000);
    const slot = second % SLOTS;
    if (this.#second[slot] !== second) {
      this.#second[slot] = second;
      this.#ring.received[slot] = 0;
      this.#ring.stored[slot] = 0;
      this.#ring.dropped[slot] = 0;
    }
    return slot;
  }

  /** One message arrived at `now`. */
  received(now: number): void {
    this.#received++;
    this.#ring.received[this.#slot(now)]++;
  }

  /** `n` samples were handed to the store at `now`. */
  stored(n: number, now: number): void {
    this.#stored += n;
    this.#ring.stored[this.#slot(now)] += n;
  }

  /** `n` messages (samples for `store_error`) were dropped at `now`. */
  dropped(reason: DropReason, now: number, n = 1): void {
    this.#dropped[reason] += n;
    this.#ring.dropped[this.#slot(now)] += n;
  }

  /** A message of a known topic carried nothing to store. */
  ignored(): void {
    this.#ignored++;
  }

  /** `n` fields of a good message were dropped. */
  invalidFields(n: number): void {
    this.#invalidFields += n;
  }

  /** An error was caught from a dependency. */
  error(kind: ErrorKind): void {
    this.#errors[kind]++;
  }

  /** The counters now; `perMinute` covers the 60 seconds up to `now`. */
  snapshot(now: number): IngestStats {
    const second = Math.floor(now / 1000);
    const perMinute = { received: 0, stored: 0, dropped: 0 };
    for (let i = 0; i < SLOTS; i++) {
      const age = second - this.#second[i];
      if (this.#second[i] < 0 || age < 0 || age >= SLOTS) continue;
      perMinute.received += this.#ring.received[i];
      perMinute.stored += this.#ring.stored[i];
      perMinute.dropped += this.#ring.dropped[i];
    }
    return {
      received: this.#received,
      stored: this.#stored,
      ignored: this.#ignored,
      invalidFields: this.#invalidFields,
      dropped: { ...this.#dropped },
      errors: { ...this.#errors },
      perMinute,
    };
  }
}
