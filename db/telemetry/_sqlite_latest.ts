/**
 * The `latest` row of a device in the SQLite store: its newest sample time, the newest value
 * of each key and the time of the sample it came from (both JSON). The writer keeps it in
 * memory and writes it once per merge when it changed; its time also tells readers which
 * rollup buckets are open (_sqlite_open.ts).
 */
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { KEY_COUNT, type NormSample } from "./_samples.ts";
import type { Statements } from "./_sqlite_schema.ts";

/** A device's latest values as the writer keeps them. */
export interface Latest {
  /** Newest sample time stored (-Infinity for none). */
  lastTs: number;
  /** The newest value of each key, and the time of its sample. */
  latest: Record<string, number>;
  latestTs: Record<string, number>;
  /** Whether it changed since it was last written. */
  latestDirty: boolean;
}

/** The stored latest values of a device (none yet: empty, time -Infinity). */
export function loadLatest(st: Statements, sid: number): Latest {
  const row = st.latestOf.get(sid) as { ts: number; data: string; key_ts: string } | undefined;
  return {
    lastTs: row ? row.ts : -Infinity,
    latest: row ? JSON.parse(row.data) : {},
    latestTs: row ? JSON.parse(row.key_ts) : {},
    latestDirty: false,
  };
}

/**
 * Each key keeps the value of its newest sample, whatever the order samples came in.
 * `samples` are one device's, in time order with distinct instants: read from the newest
 * back, each key's first value found is the newest of them. The newest sample time moves
 * on with them.
 */
export function overlayLatest(dev: Latest, samples: readonly NormSample[]): void {
  const newest = samples[samples.length - 1]?.ts ?? -Infinity;
  if (newest > dev.lastTs) {
    dev.lastTs = newest;
    dev.latestDirty = true;
  }
  let found = 0;
  const done: boolean[] = new Array(KEY_COUNT).fill(false);
  for (let i = samples.length - 1; i >= 0 && found < KEY_COUNT; i--) {
    const s = samples[i];
    for (let k = 0; k < KEY_COUNT; k++) {
      const v = s.vals[k];
      if (v === null || done[k]) continue;
      done[k] = true;
      found++;
      const key = MEASUREMENT_KEYS[k];
      const seen = dev.latestTs[key];
      if (seen === undefined || s.ts >= seen) {
        dev.latest[key] = v;
        dev.latestTs[key] = s.ts;
        dev.latestDirty = true;
      }
    }
  }
}

/** Writes the device's latest row if it changed. */
export function writeLatest(st: Statements, sid: number, dev: Latest): void {
  if (!dev.latestDirty) return;
  const { lastTs, latest, latestTs } = dev;
  st.upsertLatest.run(sid, lastTs, JSON.stringify(latest), JSON.stringify(latestTs));
  dev.latestDirty = false;
}
