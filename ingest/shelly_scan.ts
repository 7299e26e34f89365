/**
 * Reading the metering fields of a Shelly payload straight from its bytes (pure), for the
 * common case only: a NotifyStatus or NotifyFullStatus frame, or a status object of a
 * metering component, in plain ASCII JSON without escapes, whose numbers have at most 15
 * or so digits. Anything else (another method, an escape, a duplicate key, a known field
 * holding neither a number nor null, a number this cannot read exactly, malformed JSON) gives
 * null, and the caller takes the general path (`TextDecoder` and `JSON.parse`), which decides
 * what such a payload means: this never judges a payload, it only reads the ones it is sure of.
 *
 * Written by hand because no JSON library reads selected keys from bytes without building the
 * whole document first: this one builds nothing (no string, no object per frame), which is
 * most of ingest's cost per message otherwise. A number is the JSON text's own value: its
 * digits as an exact integer (below 2^53) times or divided by an exact power of ten (up to
 * 10^22), one correctly rounded operation, as `JSON.parse` gives (the fast path of
 * correctly rounded decimal conversion); other numbers give null.
 */
import { COMPONENT_REFS, componentKey, type ComponentRef, fieldSpecs } from "./shelly_fields.ts";

/** What {@link scanPayload} read; reused by the next scan. */
export interface Scan {
  /** NotifyFullStatus (true) or NotifyStatus (false); false for a status object. */
  full: boolean;
  /** `params.ts` when a number, else NaN. */
  ts: number;
  /** The metering components present, by index (`ComponentRef.index`), in order. */
  present: number[];
  /** Per component index, by field slot: the number read (when `marks` is 1). */
  values: Float64Array[];
  /** Per component index, by field slot: 0 absent, 1 a number, 2 null. */
  marks: Uint8Array[];
}

/** Thrown inside the scan when the payload is not one it is sure of. */
const GIVE_UP = new Error("not a payload the scan reads");

// ----- the keys it knows: one open-addressed table of every key's bytes ---------------------

const ascii = new TextEncoder();
const TABLE_SIZE = 512;
/** Key number + 1 by hash slot (0: empty). */
const TABLE = new Int32Array(TABLE_SIZE);
const KEY_BYTES: Uint8Array[] = [];

/** The hash step of a key's bytes (the scan computes it while reading the key). */
const step = (h: number, c: number) => (Math.imul(h, 31) + c) | 0;

/** The number of a key (added to the table once). */
function keyNumber(key: string): number {
  const bytes = ascii.encode(key);
  let h = 0;
  for (const c of bytes) h = step(h, c);
  for (let i = h & (TABLE_SIZE - 1);; i = (i + 1) & (TABLE_SIZE - 1)) {
    const n = TABLE[i] - 1;
    if (n < 0) {
      KEY_BYTES.push(bytes);
      TABLE[i] = KEY_BYTES.length;
      return KEY_BYTES.length - 1;
    }
    if (KEY_BYTES[n].join() === bytes.join()) return n;
  }
}

/** What each key number means at one level of the payload (-1: nothing). */
const level = () => new Int32Array(64).fill(-1);
const METHOD = 1;
const PARAMS = 2;
const TS = -2;
const TOP = level();
TOP[keyNumber("method")] = METHOD;
TOP[keyNumber("params")] = PARAMS;
const REFS = COMPONENT_REFS;
/** In params: a component's index, or TS. */
const PARAM = level();
PARAM[keyNumber("ts")] = TS;
for (const ref of REFS) PARAM[keyNumber(componentKey(ref))] = ref.index;
/** In a component, by component index: a field's slot. */
const FIELD = REFS.map((ref) => {
  const slots = level();
  for (const [field, spec] of fieldSpecs(ref.type)) slots[keyNumber(field)] = spec.slot;
  return slots;
});
if (KEY_BYTES.length > 64) throw new Error("shelly_scan: more keys than its levels hold");

/** Bytes a string may not hold here: control characters, `\\` (escapes), non-ASCII. */
const REFUSED = new Uint8Array(256).map((_, c) => c < 32 || c === 92 || c > 126 ? 1 : 0);
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Nesting this deep is left to `JSON.parse`. */
const MAX_DEPTH = 32;
const NOTIFY_STATUS = ascii.encode("NotifyStatus");
const NOTIFY_FULL_STATUS = ascii.encode("NotifyFullStatus");

// ----- the scan -----------------------------------------------------------------------------

const scan: Scan = {
  full: false,
  ts: NaN,
  present: [],
  values: REFS.map((ref) => new Float64Array(fieldSpecs(ref.type).size)),
  marks: REFS.map((ref) => new Uint8Array(fieldSpecs(ref.type).size)),
};

const EMPTY = new Uint8Array(0);
let b: Uint8Array = EMPTY;
let p = 0;
let end = 0;
/** Where the last string read starts and ends (inside its quotes). */
let from = 0;
let to = 0;

/** Skips JSON whitespace; answers the byte there (-1 at the end). */
function ws(): number {
  // Compact JSON (the meter's): no whitespace at all.
  if (p < end && b[p] > 32) return b[p];
  while (p < end) {
    const c = b[p];
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return c;
    p++;
  }
  return -1;
}

function expect(c: number): void {
  if (ws() !== c) throw GIVE_UP;
  p++;
}

/** Reads a string that is not a key (`p` at its opening quote). */
function value(): void {
  const bytes = b;
  const n = end;
  let i = p;
  from = i + 1;
  while (++i < n) {
    const c = bytes[i];
    if (c === 34) {
      to = i;
      p = i + 1;
      return;
    }
    if (REFUSED[c] === 1) throw GIVE_UP;
  }
  throw GIVE_UP;
}

/** Reads a string (`p` at its opening quote); answers its hash. */
function string(): number {
  const bytes = b;
  const n = end;
  let i = p;
  from = i + 1;
  let h = 0;
  while (++i < n) {
    const c = bytes[i];
    if (c === 34) {
      to = i;
      p = i + 1;
      return h;
    }
    if (REFUSED[c] === 1) throw GIVE_UP;
    h = step(h, c);
  }
  throw GIVE_UP;
}

/** Reads an object key and its colon; answers the key's number, or -1 for a key it does not know. */
function key(): number {
  if (ws() !== 34) throw GIVE_UP;
  const h = string();
  expect(58);
  for (let i = h & (TABLE_SIZE - 1);; i = (i + 1) & (TABLE_SIZE - 1)) {
    const n = TABLE[i] - 1;
    if (n < 0) return -1;
    if (same(KEY_BYTES[n])) return n;
  }
}

/** Whether the last string read is `word`. */
function same(word: Uint8Array): boolean {
  const start = from;
  const bytes = b;
  if (to - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (word[i] !== bytes[start + i]) return false;
  return true;
}

/** After a member: true when another follows (a comma), false at the object's end. */
function more(close: number): boolean {
  const c = ws();
  p++;
  if (c === 44) return true;
  if (c === close) return false;
  throw GIVE_UP;
}

/** Opens an object; false when it is empty (and then closed). */
function open(): boolean {
  expect(123);
  if (ws() !== 125) return true;
  p++;
  return false;
}

/** Reads a JSON number exactly (see the module's comment). */
function number(): number {
  // The scan's place in locals: module bindings cost a load and a store at each use.
  const bytes = b;
  const n = end;
  let i = p;
  let negative = false;
  let c = bytes[i];
  if (c === 45) {
    negative = true;
    c = ++i < n ? bytes[i] : -1;
  }
  let m = 0;
  if (c === 48) {
    c = ++i < n ? bytes[i] : -1;
    if (c >= 48 && c <= 57) throw GIVE_UP;
  } else if (c >= 49 && c <= 57) {
    do {
      m = m * 10 + (c - 48);
      c = ++i < n ? bytes[i] : -1;
    } while (c >= 48 && c <= 57);
  } else {
    throw GIVE_UP;
  }
  let k = 0;
  if (c === 46) {
    c = ++i < n ? bytes[i] : -1;
    if (!(c >= 48 && c <= 57)) throw GIVE_UP;
    do {
      m = m * 10 + (c - 48);
      k--;
      c = ++i < n ? bytes[i] : -1;
    } while (c >= 48 && c <= 57);
  }
  if (c === 101 || c === 69) {
    c = ++i < n ? bytes[i] : -1;
    let sign = 1;
    if (c === 43 || c === 45) {
      if (c === 45) sign = -1;
      c = ++i < n ? bytes[i] : -1;
    }
    if (!(c >= 48 && c <= 57)) throw GIVE_UP;
    let e = 0;
    do {
      e = e * 10 + (c - 48);
      if (e > 400) throw GIVE_UP;
      c = ++i < n ? bytes[i] : -1;
    } while (c >= 48 && c <= 57);
    k += sign * e;
  }
  p = i;
  if (m > 9007199254740992 || k < -22 || k > 22) throw GIVE_UP;
  const v = k === 0 ? m : k > 0 ? m * POW10[k] : m / POW10[-k];
  return negative ? -v : v;
}

function literal(word: string): void {
  for (let i = 0; i < word.length; i++) {
    if (p >= end || b[p] !== word.charCodeAt(i)) throw GIVE_UP;
    p++;
  }
}

/** Reads and forgets any JSON value. */
function skip(depth: number): void {
  const c = ws();
  if (c === 34) {
    value();
  } else if (c === 123) {
    if (depth >= MAX_DEPTH) throw GIVE_UP;
    if (!open()) return;
    do {
      key();
      skip(depth + 1);
    } while (more(125));
  } else if (c === 91) {
    if (depth >= MAX_DEPTH) throw GIVE_UP;
    p++;
    if (ws() === 93) {
      p++;
      return;
    }
    do skip(depth + 1); while (more(93));
  } else if (c === 116) literal("true");
  else if (c === 102) literal("false");
  else if (c === 110) literal("null");
  else number();
}

/** Reads a metering component's object into the scan (`index`: its component). */
function component(index: number): void {
  if (scan.present.includes(index)) throw GIVE_UP;
  scan.present.push(index);
  const slots = FIELD[index];
  const values = scan.values[index];
  const marks = scan.marks[index];
  marks.fill(0);
  if (!open()) return;
  do {
    const n = key();
    const slot = n < 0 ? -1 : slots[n];
    if (slot < 0) {
      skip(1);
      continue;
    }
    if (marks[slot] !== 0) throw GIVE_UP;
    if (ws() === 110) {
      literal("null");
      marks[slot] = 2;
    } else {
      values[slot] = number();
      marks[slot] = 1;
    }
  } while (more(125));
}

/** Reads the params of a frame. */
function params(): void {
  let ts = false;
  if (!open()) return;
  do {
    const n = key();
    const id = n < 0 ? -1 : PARAM[n];
    if (id >= 0) {
      component(id);
    } else if (id === TS) {
      if (ts) throw GIVE_UP;
      ts = true;
      const c = ws();
      if (c === 45 || (c >= 48 && c <= 57)) scan.ts = number();
      else skip(1);
    } else {
      skip(1);
    }
  } while (more(125));
}

/** Reads a frame; answers whether it is a NotifyFullStatus (else a NotifyStatus). */
function frame(): boolean {
  let method: Uint8Array | null = null;
  let seenParams = false;
  if (!open()) throw GIVE_UP;
  do {
    const n = key();
    const id = n < 0 ? -1 : TOP[n];
    if (id === METHOD) {
      if (method !== null || ws() !== 34) throw GIVE_UP;
      value();
      method = same(NOTIFY_STATUS)
        ? NOTIFY_STATUS
        : same(NOTIFY_FULL_STATUS)
        ? NOTIFY_FULL_STATUS
        : null;
      if (method === null) throw GIVE_UP;
    } else if (id === PARAMS) {
      if (seenParams) throw GIVE_UP;
      seenParams = true;
      params();
    } else {
      skip(1);
    }
  } while (more(125));
  if (method === null || !seenParams) throw GIVE_UP;
  return method === NOTIFY_FULL_STATUS;
}

/**
 * Reads a payload: an events/rpc frame (`status` null) or the status object of the
 * component `status`. Null when it is not one this reads (see the module's comment), or
 * when it holds no metering component.
 */
export function scanPayload(bytes: Uint8Array, status: ComponentRef | null): Scan | null {
  b = bytes;
  p = 0;
  end = bytes.length;
  scan.present.length = 0;
  scan.ts = NaN;
  scan.full = false;
  try {
    if (status) component(status.index);
    else scan.full = frame();
    if (ws() !== -1) return null;
  } catch (error) {
    if (error === GIVE_UP) return null;
    throw error;
  } finally {
    b = EMPTY;
  }
  return scan.present.length > 0 ? scan : null;
}
