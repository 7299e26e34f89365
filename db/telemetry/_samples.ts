/**
 * Samples as the stores handle them: checked once in `write()`, values by key index
 * (null where a partial frame left a key out), grouped per device in time order.
 */
import { COUNTER_KEYS, MEASUREMENT_KEYS, type MeasurementKey } from "../../core/devices.ts";
import { isBucket } from "./_buckets.ts";
import type { Aggregate, Bucket, Sample } from "./mod.ts";

/** Number of measurement keys (the width of a value row). */
export const KEY_COUNT = MEASUREMENT_KEYS.length;

const KEY_INDEX = new Map<string, number>(MEASUREMENT_KEYS.map((k, i) => [k, i]));
const COUNTER_SET = new Set<string>(COUNTER_KEYS);

/** Whether the key at an index is a counter (only grows, except on a reset). */
export const IS_COUNTER: readonly boolean[] = MEASUREMENT_KEYS.map((k) => COUNTER_SET.has(k));

/** A checked sample: values by key index, null where missing. */
export interface NormSample {
  serial: string;
  ts: number;
  vals: (number | null)[];
}

/** Checks sample `i`'s serial, time and values object (the errors the store's `write` throws). */
function checkSample(s: Sample, i: number): void {
  if (typeof s?.serial !== "string" || s.serial.length === 0) {
    throw new TypeError(`sample ${i} has no serial: ${JSON.stringify(s?.serial)}`);
  }
  if (typeof s.ts !== "number" || !Number.isFinite(s.ts) || s.ts < 0) {
    throw new RangeError(`sample ${i} of ${s.serial} has no valid timestamp: ${s.ts}`);
  }
  if (typeof s.values !== "object" || s.values === null) {
    throw new TypeError(`sample ${i} of ${s.serial} has no values object`);
  }
}

/**
 * The key index of `key` in sample `i`, its value `v` checked: -1 for a value left out (null
 * or undefined); throws for an unknown key or a value that is not a finite number.
 */
function checkedKey(s: Sample, i: number, key: string, v: unknown): number {
  const k = KEY_INDEX.get(key);
  if (k === undefined) throw new TypeError(`sample ${i} of ${s.serial} has unknown key '${key}'`);
  if (v === null || v === undefined) return -1;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw new TypeError(`sample ${i} of ${s.serial}: ${key} is not a finite number: ${v}`);
  }
  return k;
}

/**
 * Checks and converts samples. Throws TypeError for a missing serial, an unknown key or a
 * value that is not a finite number, RangeError for a timestamp that is not a finite
 * instant; nothing is converted unless every sample passes. Null or undefined values are
 * missing keys; samples without any value are left out. Timestamps are rounded to ms.
 */
export function normalizeSamples(samples: readonly Sample[]): NormSample[] {
  if (!Array.isArray(samples)) throw new TypeError(`write() needs an array of samples`);
  const out: NormSample[] = [];
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    checkSample(s, i);
    const vals: (number | null)[] = new Array(KEY_COUNT).fill(null);
    let present = 0;
    const values = s.values as Record<string, unknown>;
    for (const key in values) {
      if (!Object.hasOwn(values, key)) continue;
      const v = values[key];
      const k = checkedKey(s, i, key, v);
      if (k < 0) continue;
      vals[k] = v as number; // checked by checkedKey
      present++;
    }
    if (present > 0) out.push({ serial: s.serial, ts: Math.round(s.ts), vals });
  }
  return out;
}

/**
 * Samples per serial, each list in time order with samples of the same instant merged
 * (later values overlay earlier ones, as partial frames do).
 */
export function groupBySerial(samples: readonly NormSample[]): Map<string, NormSample[]> {
  const groups = new Map<string, NormSample[]>();
  /** Serials whose samples did not come strictly in time order (the rare case). */
  const unordered = new Set<string>();
  for (const s of samples) {
    const list = groups.get(s.serial);
    if (list === undefined) groups.set(s.serial, [s]);
    else {
      if (s.ts <= list[list.length - 1].ts) unordered.add(s.serial);
      list.push(s);
    }
  }
  for (const serial of unordered) {
    const list = groups.get(serial)!;
    list.sort((a, b) => a.ts - b.ts); // stable: later writes stay later
    const merged: NormSample[] = [];
    for (const s of list) {
      const prev = merged[merged.length - 1];
      if (prev && prev.ts === s.ts) {
        const vals = prev.vals.slice();
        s.vals.forEach((v, k) => {
          if (v !== null) vals[k] = v;
        });
        merged[merged.length - 1] = { serial, ts: s.ts, vals };
      } else merged.push(s);
    }
    groups.set(serial, merged);
  }
  return groups;
}

/** The values of a checked sample as an object of the keys present. */
export function valuesObject(
  vals: readonly (number | null)[],
): Partial<Record<MeasurementKey, number>> {
  const out: Partial<Record<MeasurementKey, number>> = {};
  vals.forEach((v, k) => {
    if (v !== null) out[MEASUREMENT_KEYS[k]] = v;
  });
  return out;
}

/** Index of a measurement key; TypeError for anything else. */
export function keyIndex(key: unknown): number {
  const k = typeof key === "string" ? KEY_INDEX.get(key) : undefined;
  if (k === undefined) throw new TypeError(`unknown measurement key: ${JSON.stringify(key)}`);
  return k;
}

/** Index of a counter key; TypeError for a key that is not a counter. */
export function counterKeyIndex(key: unknown): number {
  const k = keyIndex(key);
  if (!IS_COUNTER[k]) {
    throw new TypeError(`${key} is not a counter key (one of ${COUNTER_KEYS.join(", ")})`);
  }
  return k;
}

/** Checks a query range [from, to): finite instants, `to` not before `from`. */
export function checkRange(from: number, to: number): void {
  if (!Number.isFinite(from) || !Number.isFinite(to)) {
    throw new RangeError(`query range needs finite instants, got from=${from}, to=${to}`);
  }
  if (to < from) throw new RangeError(`query range ends before it starts: ${from} > ${to}`);
}

/** Checks a bucket size; TypeError for anything else. */
export function checkBucket(bucket: unknown): asserts bucket is Bucket {
  if (!isBucket(bucket)) throw new TypeError(`unknown bucket size: ${JSON.stringify(bucket)}`);
}

/** Checks an aggregate name; TypeError for anything else. */
export function checkAggregate(agg: unknown): asserts agg is Aggregate {
  if (agg !== "avg" && agg !== "max" && agg !== "min" && agg !== "last") {
    throw new TypeError(`unknown aggregate: ${JSON.stringify(agg)}`);
  }
}

/** A batch in a form that moves to a worker without copying: see `packBatch()`. */
export interface PackedBatch {
  serials: string[];
  /** Per sample: index into `serials`, ts, then every key's value (NaN where missing). */
  data: Float64Array;
}

const STRIDE = 2 + KEY_COUNT;

/** Packs a batch into one Float64Array (transferable) and the list of its serials. */
export function packBatch(batch: readonly NormSample[]): PackedBatch {
  const serials: string[] = [];
  const index = new Map<string, number>();
  const data = new Float64Array(batch.length * STRIDE);
  batch.forEach((s, i) => {
    let si = index.get(s.serial);
    if (si === undefined) {
      si = serials.length;
      serials.push(s.serial);
      index.set(s.serial, si);
    }
    const o = i * STRIDE;
    data[o] = si;
    data[o + 1] = s.ts;
    for (let k = 0; k < KEY_COUNT; k++) data[o + 2 + k] = s.vals[k] ?? Number.NaN;
  });
  return { serials, data };
}

/**
 * Checks samples as {@link normalizeSamples} does (the same errors, nothing packed unless
 * every sample passes) and packs them straight into a {@link PackedBatch}: no object per
 * sample on the way, which is what a store writing in a worker needs (objects that wait in
 * the queue for the writer are garbage the collector must carry).
 */
export function packSamples(samples: readonly Sample[]): PackedBatch {
  if (!Array.isArray(samples)) throw new TypeError(`write() needs an array of samples`);
  const serials: string[] = [];
  const index = new Map<string, number>();
  let data = new Float64Array(samples.length * STRIDE);
  let o = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    checkSample(s, i);
    data.fill(Number.NaN, o + 2, o + STRIDE);
    let present = 0;
    const values = s.values as Record<string, unknown>;
    for (const key in values) {
      if (!Object.hasOwn(values, key)) continue;
      const v = values[key];
      const k = checkedKey(s, i, key, v);
      if (k < 0) continue;
      data[o + 2 + k] = v as number; // checked by checkedKey
      present++;
    }
    if (present === 0) continue;
    let si = index.get(s.serial);
    if (si === undefined) {
      si = serials.length;
      serials.push(s.serial);
      index.set(s.serial, si);
    }
    data[o] = si;
    data[o + 1] = Math.round(s.ts);
    o += STRIDE;
  }
  if (o < data.length) data = data.slice(0, o);
  return { serials, data };
}

/** Samples in a packed batch. */
export const packedLength = (packed: PackedBatch): number => packed.data.length / STRIDE;

/** The samples of a packed batch. */
export function unpackBatch(packed: PackedBatch): NormSample[] {
  const { serials, data } = packed;
  if (data.length % STRIDE !== 0) {
    throw new RangeError(`packed batch of ${data.length} values is not whole samples`);
  }
  const out: NormSample[] = [];
  for (let o = 0; o < data.length; o += STRIDE) {
    const vals: (number | null)[] = new Array(KEY_COUNT);
    for (let k = 0; k < KEY_COUNT; k++) {
      const v = data[o + 2 + k];
      vals[k] = Number.isNaN(v) ? null : v;
    }
    out.push({ serial: serials[data[o]], ts: data[o + 1], vals });
  }
  return out;
}
