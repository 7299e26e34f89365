/**
 * Every device's last_seen, for the admin's views of the whole fleet (`scope.ts`). Ingest
 * raises it with every batch, so no revision tells when it changed: the map is read with one
 * scan and answered again for up to {@link LAST_SEEN_MS}, one read at a time per store. A
 * bounded cache, by choice: the fleet's list shows when each meter was last heard from at most
 * that much late, while reading every device's time costs a scan of the fleet.
 */
import { allLastSeen } from "../../db/device_status.ts";

/** How old the fleet's last_seen may be (ms). */
export const LAST_SEEN_MS = 5_000;

interface Kept {
  /** When it was read (by the caller's monotonic clock). */
  at: number;
  seen: ReadonlyMap<number, number>;
}

const kept = new WeakMap<Deno.Kv, Kept>();
const reading = new WeakMap<Deno.Kv, Promise<ReadonlyMap<number, number>>>();

/** Every device's last_seen, at most {@link LAST_SEEN_MS} old. */
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
  return running;
}
