/**
 * A chunk: one meter's raw readings of one stretch of time packed into one value, column by
 * column, as the SQLite store keeps them (`chunks` table, see _sqlite_schema.ts).
 *
 * Layout (all integers are unsigned LEB128 varints, signed ones zigzag-mapped first):
 *
 * ```
 * version (1 byte) · n readings · K columns · K + 1 section lengths in bytes ·
 * time section · K column sections
 * ```
 *
 * - The time section: a mode byte, then either (mode 0) the first time and the
 *   delta-of-delta of each next one (readings every 10 s take one byte each, jitter two), or
 *   (mode 1) every time as a float64, for times that are not whole milliseconds within ±2^50.
 * - A column section: a byte of presence (0 absent in every reading, 1 present in every
 *   reading, 2 a bitmap of n bits follows) and encoding (bit 2: 0 scaled integers, 1 float64).
 *   Scaled integers: a byte `d`, then each present value times 10^d as an integer, the first
 *   one whole and each next as the difference from the one before. `d` is the fewest decimals
 *   that give every value back bit for bit (`s / 10^d === v`); a column where none does
 *   (more than 9 decimals, too large, -0, NaN, infinities) is kept as float64, so decoding is
 *   always exact. Meter values are decimals read from text (230.1 V, 12345.678 kWh), so a
 *   column of them usually takes one or two bytes a value instead of eight.
 *
 * Readings are kept in the order given, duplicates and times out of order included (the store
 * gives them sorted, distinct). Sections have their length up front, so one column is read
 * without decoding the others.
 *
 * The varints come from the `varint` package; the rest is written here because no kept
 * library packs decimal columns exactly: the time-series codecs published for JavaScript
 * (Gorilla-style XOR floats) are unmaintained or lossy for decimal data, and general
 * compressors (zlib) cost several times the CPU for a block this small.
 */
import varint from "varint";

/** One reading: its time and its values by column, null where absent. */
export interface ChunkRow {
  ts: number;
  vals: readonly (number | null)[];
}

const VERSION = 1;
const MAX_DECIMALS = 9;
/** Scaled integers and times stay within this, so their differences stay exact. */
const LIMIT = 2 ** 50;
const POW10 = Array.from({ length: MAX_DECIMALS + 1 }, (_, d) => 10 ** d);

const ABSENT = 0, ALL = 1, BITMAP = 2, FLOAT = 4;

/** A growing byte buffer (one kept per module, so encoding allocates only its answer). */
class Out {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  uint(n: number): void {
    if (n < 0x8000_0000) {
      // The same LEB128 bytes `varint.encode()` writes, inline for the small numbers nearly
      // every value is: the library's call per value was a fifth of packing a chunk.
      const buf = this.buf;
      let pos = this.pos;
      while (n >= 0x80) {
        buf[pos++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
      buf[pos++] = n;
      this.pos = pos;
      return;
    }
    varint.encode(n, this.buf, this.pos);
    this.pos += varint.encode.bytes!;
  }

  int(n: number): void {
    this.uint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  float(v: number): void {
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }
}

const scratch = new Out(1 << 16);
const headScratch = new Out(64);
const ends: number[] = [];

/** Packs readings (every row with the same number of values) into a chunk. */
export function encodeChunk(rows: readonly ChunkRow[]): Uint8Array {
  const n = rows.length;
  const width = n === 0 ? 0 : rows[0].vals.length;
  const out = scratch;
  out.pos = 0;
  // Worst case: 10 bytes per varint or 8 per float and a mode byte per section, plus bitmaps.
  out.room((width + 1) * (n * 10 + 16 + Math.ceil(n / 8)));
  ends.length = 0;
  encodeTimes(out, rows);
  ends.push(out.pos);
  gather(rows, width);
  for (let k = 0; k < width; k++) {
    encodeColumn(out, rows.length, k);
    ends.push(out.pos);
  }
  const head = headScratch;
  head.pos = 0;
  head.room(3 + 10 * (width + 3));
  head.buf[head.pos++] = VERSION;
  head.uint(n);
  head.uint(width);
  let prev = 0;
  for (const end of ends) {
    head.uint(end - prev);
    prev = end;
  }
  const answer = new Uint8Array(head.pos + out.pos);
  answer.set(head.buf.subarray(0, head.pos));
  answer.set(out.buf.subarray(0, out.pos), head.pos);
  return answer;
}

function encodeTimes(out: Out, rows: readonly ChunkRow[]): void {
  let whole = true;
  for (let i = 0; i < rows.length && whole; i++) {
    const ts = rows[i].ts;
    whole = Number.isInteger(ts) && Math.abs(ts) <= LIMIT;
  }
  if (!whole) {
    out.buf[out.pos++] = FLOAT;
    for (const { ts } of rows) out.float(ts);
    return;
  }
  out.buf[out.pos++] = 0;
  let last = 0, step = 0;
  for (let i = 0; i < rows.length; i++) {
    const ts = rows[i].ts;
    if (i === 0) out.int(ts);
    else {
      out.int(ts - last - step);
      step = ts - last;
    }
    last = ts;
  }
}

/** The fewest decimals that give `v` back from an integer, or -1 when none does. */
function decimalsOf(v: number, from: number): number {
  if (Object.is(v, -0)) return -1;
  for (let d = from; d <= MAX_DECIMALS; d++) {
    const s = Math.round(v * POW10[d]);
    if (!(Math.abs(s) <= LIMIT)) return -1; // too large, or NaN
    if (s / POW10[d] === v) return d;
  }
  return -1;
}

/**
 * The present values of the readings being packed, column by column (column k's `counts[k]`
 * values from `matrix[k * n]` on), gathered in one pass over the readings: reading every
 * reading's values once, in order, costs less than once per column.
 */
let matrix = new Float64Array(4096);
let counts = new Int32Array(64);
/** Bitmaps of the columns being packed: column k's from `bitmaps[k * stride]` on. */
let bitmaps = new Uint8Array(1024);
let stride = 0;

/** Gathers every column's present values and presence bits (see `matrix`, `bitmaps`). */
function gather(rows: readonly ChunkRow[], width: number): void {
  const n = rows.length;
  if (matrix.length < n * width) matrix = new Float64Array(n * width * 2);
  if (counts.length < width) counts = new Int32Array(width * 2);
  stride = Math.ceil(n / 8);
  if (bitmaps.length < stride * width) bitmaps = new Uint8Array(stride * width * 2);
  const m = matrix, c = counts, bits = bitmaps;
  c.fill(0, 0, width);
  bits.fill(0, 0, stride * width);
  for (let i = 0; i < n; i++) {
    const vals = rows[i].vals;
    const byte = i >> 3, bit = 1 << (i & 7);
    for (let k = 0; k < width; k++) {
      const v = vals[k];
      if (v === null || v === undefined) continue;
      m[k * n + c[k]++] = v;
      bits[k * stride + byte] |= bit;
    }
  }
}

function encodeColumn(out: Out, n: number, k: number): void {
  const mode = out.pos++;
  const bitmap = out.pos, bytes = Math.ceil(n / 8);
  const present = counts[k], base = k * n, col = matrix;
  const buf = out.buf;
  if (present === 0) {
    buf[mode] = ABSENT;
    return;
  }
  if (present < n) {
    for (let b = 0; b < bytes; b++) buf[bitmap + b] = bitmaps[k * stride + b];
  }
  const presence = present === n ? ALL : BITMAP;
  const values = presence === ALL ? bitmap : bitmap + bytes;
  // Scaled by 10^d, d from 0 up: a value that needs more decimals starts the column again
  // with as many as it needs (a column is packed at most a few times, usually once).
  for (let d = 0; d >= 0;) {
    out.pos = values;
    buf[out.pos++] = d;
    const p = POW10[d];
    let prev = 0, need = d;
    for (let i = 0; i < present; i++) {
      const v = col[base + i];
      const s = Math.round(v * p);
      if (s / p !== v || !(Math.abs(s) <= LIMIT) || (s === 0 && 1 / s < 0)) {
        need = decimalsOf(v, d + 1);
        break;
      }
      out.int(i === 0 ? s : s - prev);
      prev = s;
    }
    if (need === d) {
      buf[mode] = presence;
      return;
    }
    d = need;
  }
  buf[mode] = presence | FLOAT;
  out.pos = values;
  for (let i = 0; i < present; i++) out.float(col[base + i]);
}

/** A chunk's header: readings, columns, and where each section starts and ends. */
interface Header {
  n: number;
  width: number;
  /** Offsets: section s spans [at[s], at[s + 1]); section 0 is the times. */
  at: number[];
}

function header(bytes: Uint8Array): Header {
  if (bytes[0] !== VERSION) throw new RangeError(`unknown chunk version ${bytes[0]}`);
  let pos = 1;
  const next = () => {
    const v = varint.decode(bytes, pos);
    pos += varint.decode.bytes!;
    return v;
  };
  const n = next(), width = next();
  const lengths: number[] = [];
  for (let s = 0; s <= width; s++) lengths.push(next());
  const at = [pos];
  for (const len of lengths) at.push(at[at.length - 1] + len);
  if (at[at.length - 1] !== bytes.length) {
    throw new RangeError(`chunk of ${bytes.length} bytes has sections up to byte ${at.at(-1)}`);
  }
  return { n, width, at };
}

/** A reader over a chunk's bytes. */
class In {
  pos: number;
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array, pos: number) {
    this.pos = pos;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  uint(): number {
    const v = varint.decode(this.bytes, this.pos);
    this.pos += varint.decode.bytes!;
    return v;
  }
  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
  float(): number {
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
}

function decodeTimes(bytes: Uint8Array, h: Header): number[] {
  const r = new In(bytes, h.at[0]);
  const mode = bytes[r.pos++];
  const out: number[] = new Array(h.n);
  if (mode === FLOAT) {
    for (let i = 0; i < h.n; i++) out[i] = r.float();
    return out;
  }
  let last = 0, step = 0;
  for (let i = 0; i < h.n; i++) {
    if (i === 0) last = r.int();
    else {
      step += r.int();
      last += step;
    }
    out[i] = last;
  }
  return out;
}

function decodeColumn(bytes: Uint8Array, h: Header, k: number): (number | null)[] {
  const out: (number | null)[] = new Array(h.n).fill(null);
  if (k >= h.width) return out; // a column added after the chunk was written
  const r = new In(bytes, h.at[k + 1]);
  const mode = bytes[r.pos++];
  const presence = mode & 3;
  if (presence === ABSENT) return out;
  let bitmap = -1;
  if (presence === BITMAP) {
    bitmap = r.pos;
    r.pos += Math.ceil(h.n / 8);
  }
  const has = (i: number) => bitmap < 0 || (bytes[bitmap + (i >> 3)] & (1 << (i & 7))) !== 0;
  if (mode & FLOAT) {
    for (let i = 0; i < h.n; i++) if (has(i)) out[i] = r.float();
    return out;
  }
  const p = POW10[bytes[r.pos++]];
  let s = 0, first = true;
  for (let i = 0; i < h.n; i++) {
    if (!has(i)) continue;
    s = first ? r.int() : s + r.int();
    first = false;
    out[i] = s / p;
  }
  return out;
}

/** Every reading of a chunk, in the order it was packed. */
export function decodeChunk(bytes: Uint8Array): ChunkRow[] {
  const h = header(bytes);
  const ts = decodeTimes(bytes, h);
  const cols = Array.from({ length: h.width }, (_, k) => decodeColumn(bytes, h, k));
  const rows: ChunkRow[] = new Array(h.n);
  for (let i = 0; i < h.n; i++) {
    const vals: (number | null)[] = new Array(h.width);
    for (let k = 0; k < h.width; k++) vals[k] = cols[k][i];
    rows[i] = { ts: ts[i], vals };
  }
  return rows;
}

/** One column of a chunk with the times: `values[i]` is the value at `ts[i]` or null. */
export function decodeChunkColumn(
  bytes: Uint8Array,
  k: number,
): { ts: number[]; values: (number | null)[] } {
  const h = header(bytes);
  return { ts: decodeTimes(bytes, h), values: decodeColumn(bytes, h, k) };
}

/** The number of readings of a chunk (its header alone). */
export function chunkLength(bytes: Uint8Array): number {
  return header(bytes).n;
}
