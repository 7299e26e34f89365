/**
 * The `latest` row of a device in the SQLite store: its newest sample time, the newest value
 * of each key and the time of the sample it came from (both JSON objects by key name). The
 * writer keeps them in memory by key index and writes the row once per merge when it
 * changed; its time also tells readers which rollup buckets are open (_sqlite_open.ts).
 */
import { MEASUREMENT_KEYS } from "../../core/devices.ts";
import { KEY_COUNT, type NormSample } from "./_samples.ts";
import type { Statements } from "./_sqlite_schema.ts";

/** A device's latest values as the writer keeps them. */
export interface Latest {
  /** Newest sample time stored (-Infinity for none). */
  lastTs: number;
  /** The newest value of each key (by index; NaN where the device never sent it). */
  latest: Float64Array;
  /** The time of the sample each of those values came from (NaN likewise). */
  latestTs: Float64Array;
  /** Whether it changed since it was last written. */
  latestDirty: boolean;
}

const KEY_INDEX = new Map<string, number>(MEASUREMENT_KEYS.map((k, i) => [k, i]));

/** `"key":` of each key, as JSON writes it (key names need no escaping). */
const NAME = MEASUREMENT_KEYS.map((k) => `${JSON.stringify(k)}:`);

/** Values by key index from a stored JSON object. */
function byIndex(json: string | undefined): Float64Array {
  const out = new Float64Array(KEY_COUNT).fill(Number.NaN);
  if (json === undefined) return out;
  for (const [key, v] of Object.entries(JSON.parse(json) as Record<string, unknown>)) {
    const k = KEY_INDEX.get(key);
    if (k !== undefined && typeof v === "number") out[k] = v;
  }
  return out;
}

/**
 * The JSON object of the values present, keys in their usual order: what `JSON.stringify`
 * gives for an object of them, written by hand because that object cost several
 * microseconds per device and merge to build and serialise.
 */
function toJson(values: Float64Array): string {
  let out = "";
  for (let k = 0; k < KEY_COUNT; k++) {
    const v = values[k];
    if (Number.isNaN(v)) continue;
    out += (out === "" ? "{" : ",") + NAME[k] + (Number.isFinite(v) ? String(v) : "null");
  }
  return out === "" ? "{}" : out + "}";
}

/** The stored latest values of a device (none yet: none, time -Infinity). */
export function loadLatest(st: Statements, sid: number): Latest {
  const row = st.latestOf.get(sid) as { ts: number; data: string; key_ts: string } | undefined;
  return {
    lastTs: row ? row.ts : -Infinity,
    latest: byIndex(row?.data),
    latestTs: byIndex(row?.key_ts),
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
      const seen = dev.latestTs[k];
      if (Number.isNaN(seen) || s.ts >= seen) {
        dev.latest[k] = v;
        dev.latestTs[k] = s.ts;
        dev.latestDirty = true;
      }
    }
  }
}

/** Writes the device's latest row if it changed. */
export function writeLatest(st: Statements, sid: number, dev: Latest): void {
  if (!dev.latestDirty) return;
  st.upsertLatest.run(sid, dev.lastTs, toJson(dev.latest), toJson(dev.latestTs));
  dev.latestDirty = false;
}
