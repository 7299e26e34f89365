/**
 * A journal row of the SQLite store (see _sqlite_write.ts): one batch of samples, as it came,
 * packed to be written durably in one small transaction. `serials` lists the batch's devices;
 * `data` is a marker byte, the number of samples and each one's index into `serials`
 * (varints), then the samples as one chunk (_chunk_codec.ts: times and values column by
 * column, times out of order and repeated kept as they came). A journal row written before
 * this layout holds a Float64Array (`packBatch()`: index, time and every value, NaN where
 * absent); its first byte is 0 (the first sample's index, 0.0), so both are read.
 */
import varint from "varint";
import { decodeChunk, encodeChunk } from "./_chunk_codec.ts";
import { type NormSample, unpackBatch } from "./_samples.ts";

const CHUNKED = 2;

/** Packs a batch for the journal. */
export function packJournal(batch: readonly NormSample[]): { serials: string[]; data: Uint8Array } {
  const serials: string[] = [];
  const index = new Map<string, number>();
  const head = new Uint8Array(1 + 8 * (batch.length + 1));
  head[0] = CHUNKED;
  let pos = 1;
  varint.encode(batch.length, head, pos);
  pos += varint.encode.bytes!;
  for (const s of batch) {
    let i = index.get(s.serial);
    if (i === undefined) {
      i = serials.length;
      serials.push(s.serial);
      index.set(s.serial, i);
    }
    varint.encode(i, head, pos);
    pos += varint.encode.bytes!;
  }
  const chunk = encodeChunk(batch);
  const data = new Uint8Array(pos + chunk.length);
  data.set(head.subarray(0, pos));
  data.set(chunk, pos);
  return { serials, data };
}

/** The samples of a journal row, in the order they came (either layout). */
export function unpackJournal(serials: readonly string[], data: Uint8Array): NormSample[] {
  if (data[0] !== CHUNKED) {
    const values = new Float64Array(data.slice().buffer); // a copy: aligned to 8 bytes
    return unpackBatch({ serials: [...serials], data: values });
  }
  let pos = 1;
  const n = varint.decode(data, pos);
  pos += varint.decode.bytes!;
  const which: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    which[i] = varint.decode(data, pos);
    pos += varint.decode.bytes!;
  }
  const rows = decodeChunk(data.subarray(pos));
  if (rows.length !== n) throw new RangeError(`journal row of ${n} samples holds ${rows.length}`);
  return rows.map((r, i) => ({
    serial: serials[which[i]],
    ts: r.ts,
    vals: r.vals as (number | null)[],
  }));
}
