/**
 * Every device's last_seen, for the admin's views of the whole fleet (`scope.ts`). Ingest
 * raises it with every batch, so no revision tells when it changed: the map is read with one
 * scan and answered as it is for {@link LAST_SEEN_MS}; after that the next caller starts a new
 * read (one at a time per store) and, while the map is younger than {@link STALE_MS}, is
 * answered the kept one meanwhile, so no request waits for the scan on a busy fleet. A bounded
 * cache, by choice: the fleet's list shows when each meter was last heard from a few seconds
 * late at most, while reading every device's time costs a scan of the fleet.
 */
import { allLastSeen } from "../../db/device_status.ts";

/** How long a read of the fleet's last_seen is answered without reading again (ms). */
export const LAST_SEEN_MS = 5_000;
/** How old a kept read may be while a new one runs (ms); older, callers wait for the new one. */
export const STALE_MS = 30_000;

interface Kept {
  /** When it was read (by the caller's monotonic clock). */
  at: number;
  seen: ReadonlyMap<number, number>;
}

const kept = new WeakMap<Deno.Kv, Kept>();
const reading = new WeakMap<Deno.Kv, Promise<ReadonlyMap<number, number>>>();

/** Every device's last_seen (see the module's comment for how fresh it is). */
export function fleetLastSeen(
  kv: Deno.Kv,
  clock: () => number = () => performance.now(),
): Promise<ReadonlyMap<number, number>> {
  const now = clock();
  const prev = kept.get(kv);
  if (prev && now - prev.at < LAST_SEEN_MS) return Promise.resolve(prev.seen);
  let running = reading.get(kv);
  if (!running) {
    running = allLastSeen(kv).then((seen) => {
      kept.set(kv, { at: now, seen });
      return seen;
    }).finally(() => reading.delete(kv));
    reading.set(kv, running);
  }
  if (prev && now - prev.at < STALE_MS) {
    running.catch(() => {}); // a failed read is tried again by the next caller
    return Promise.resolve(prev.seen);
  }
  return running;
}
