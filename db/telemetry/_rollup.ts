/**
 * One rollup row of the SQLite store: the aggregates of every key over one bucket, kept
 * as a Float64Array and stored as a BLOB (one value to bind per row). Per key the slots
 * are count, sum, min, max, last, and for counter keys also first and the sum of the
 * increases inside the bucket (see core/energy.ts). A count of 0 means the key is absent.
 */
import { type CounterPartial, counterStep } from "../../core/energy.ts";
import type { Aggregate } from "./mod.ts";
import { IS_COUNTER, KEY_COUNT } from "./_samples.ts";

const COUNT = 0, SUM = 1, MIN = 2, MAX = 3, LAST = 4, FIRST = 5, INC = 6;

/** Slot offset of each key. */
const OFFSET: readonly number[] = (() => {
  const out: number[] = [];
  let o = 0;
  for (let k = 0; k < KEY_COUNT; k++) {
    out.push(o);
    o += IS_COUNTER[k] ? 7 : 5;
  }
  return out;
})();

/** Number of float64 slots of a row. */
const SLOTS = OFFSET[KEY_COUNT - 1] + (IS_COUNTER[KEY_COUNT - 1] ? 7 : 5);

/** An empty row. */
export function emptyRow(): Float64Array {
  return new Float64Array(SLOTS);
}

/** Adds one sample (values by key index, in time order after what the row holds). */
export function addSample(row: Float64Array, vals: readonly (number | null)[]): void {
  for (let k = 0; k < KEY_COUNT; k++) {
    const v = vals[k];
    if (v === null) continue;
    const o = OFFSET[k];
    if (row[o + COUNT] === 0) {
      row[o + COUNT] = 1;
      row[o + SUM] = v;
      row[o + MIN] = v;
      row[o + MAX] = v;
      if (IS_COUNTER[k]) {
        row[o + FIRST] = v;
        row[o + INC] = 0;
      }
    } else {
      row[o + COUNT] += 1;
      row[o + SUM] += v;
      if (v < row[o + MIN]) row[o + MIN] = v;
      if (v > row[o + MAX]) row[o + MAX] = v;
      if (IS_COUNTER[k]) row[o + INC] += counterStep(row[o + LAST], v);
    }
    row[o + LAST] = v;
  }
}

/** Merges `later` (a row of the time right after `into`'s) into `into`. */
export function mergeRow(into: Float64Array, later: Float64Array): void {
  for (let k = 0; k < KEY_COUNT; k++) {
    const o = OFFSET[k];
    const n = later[o + COUNT];
    if (n === 0) continue;
    if (into[o + COUNT] === 0) {
      for (let s = 0; s < (IS_COUNTER[k] ? 7 : 5); s++) into[o + s] = later[o + s];
      continue;
    }
    into[o + COUNT] += n;
    into[o + SUM] += later[o + SUM];
    if (later[o + MIN] < into[o + MIN]) into[o + MIN] = later[o + MIN];
    if (later[o + MAX] > into[o + MAX]) into[o + MAX] = later[o + MAX];
    if (IS_COUNTER[k]) {
      into[o + INC] += counterStep(into[o + LAST], later[o + FIRST]) + later[o + INC];
    }
    into[o + LAST] = later[o + LAST];
  }
}

/** The row as bytes to store. */
export function encodeRow(row: Float64Array): Uint8Array {
  return new Uint8Array(row.buffer, row.byteOffset, row.byteLength);
}

/** A stored row back as floats (copied, so the bytes may be reused). */
export function decodeRow(bytes: Uint8Array): Float64Array {
  if (bytes.byteLength !== SLOTS * 8) {
    throw new RangeError(`rollup row has ${bytes.byteLength} bytes, expected ${SLOTS * 8}`);
  }
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float64Array(copy.buffer);
}

/** A reader of one key's slots straight from the stored bytes. */
function slotReader(bytes: Uint8Array, k: number): (slot: number) => number {
  return readerAt(bytes, OFFSET[k] * 8);
}

function readerAt(bytes: Uint8Array, base: number): (slot: number) => number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (slot) => view.getFloat64(base + slot * 8, true);
}

/**
 * Where one key's slots lie in a stored row (byte offset and length), so that a query can
 * read them alone (`substr(agg, offset + 1, length)`); read such a slice with
 * {@link slicePartial}, {@link sliceCount} and {@link sliceLast}.
 */
export function keySlots(k: number): { offset: number; length: number } {
  return { offset: OFFSET[k] * 8, length: (IS_COUNTER[k] ? 7 : 5) * 8 };
}

/** A counter key's partial from its slots alone (see {@link keySlots}), or null if absent. */
export function slicePartial(slice: Uint8Array): CounterPartial | null {
  const read = readerAt(slice, 0);
  if (read(COUNT) === 0) return null;
  return { first: read(FIRST), last: read(LAST), increase: read(INC) };
}

/** How many readings a key's slots alone (see {@link keySlots}) count. */
export function sliceCount(slice: Uint8Array): number {
  return readerAt(slice, 0)(COUNT);
}

/** A key's last value from its slots alone (see {@link keySlots}), or null if absent. */
export function sliceLast(slice: Uint8Array): number | null {
  const read = readerAt(slice, 0);
  return read(COUNT) === 0 ? null : read(LAST);
}

/** One key's aggregate of a stored row, or null when the key is absent in it. */
export function rowAggregate(bytes: Uint8Array, k: number, agg: Aggregate): number | null {
  const read = slotReader(bytes, k);
  const n = read(COUNT);
  if (n === 0) return null;
  switch (agg) {
    case "avg":
      return read(SUM) / n;
    case "max":
      return read(MAX);
    case "min":
      return read(MIN);
    case "last":
      return read(LAST);
  }
}

/** One counter key's partial of a stored row, or null when the key is absent in it. */
export function rowPartial(bytes: Uint8Array, k: number): CounterPartial | null {
  const read = slotReader(bytes, k);
  if (read(COUNT) === 0) return null;
  return { first: read(FIRST), last: read(LAST), increase: read(INC) };
}

/** One key's last value of a stored row, or null when the key is absent in it. */
export function rowLast(bytes: Uint8Array, k: number): number | null {
  const read = slotReader(bytes, k);
  return read(COUNT) === 0 ? null : read(LAST);
}
