/**
 * The stations' own CFE bills (`core/cfe_bill.ts`, issue 34) and their PDFs.
 *
 * Key layout:
 * - `["cfe_bills", stationId, period]` → {@link CfeBill}
 * - `["cfe_bill_pdf", blobId, index]` → `Uint8Array`, the PDF in chunks under KV's value limit
 *
 * A PDF's chunks are written first under a new blob id, then the bill that names it in one
 * commit; the chunks of the blob it replaced are removed after. A save cut short leaves only
 * chunks no bill names, never a bill naming a partial PDF.
 */
import type { CfeBill } from "../core/cfe_bill.ts";

/** Bytes per chunk (KV values are at most 64 KiB). */
const CHUNK = 60_000;
/** Chunks per commit (KV commits are at most 800 KiB). */
const CHUNKS_PER_COMMIT = 8;

const billKey = (stationId: number, period: string) => ["cfe_bills", stationId, period];
const chunkPrefix = (blob: string) => ["cfe_bill_pdf", blob];

/** The station's CFE bill of `period`, or null. */
export async function getCfeBill(
  kv: Deno.Kv,
  stationId: number,
  period: string,
): Promise<CfeBill | null> {
  return (await kv.get<CfeBill>(billKey(stationId, period))).value;
}

/** The station's CFE bills, by period (oldest first). */
export async function listCfeBills(kv: Deno.Kv, stationId: number): Promise<CfeBill[]> {
  const out: CfeBill[] = [];
  for await (const e of kv.list<CfeBill>({ prefix: ["cfe_bills", stationId] })) out.push(e.value);
  return out;
}

async function writeChunks(kv: Deno.Kv, blob: string, bytes: Uint8Array): Promise<void> {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.slice(at, at + CHUNK));
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_COMMIT) {
    const op = kv.atomic();
    chunks.slice(i, i + CHUNKS_PER_COMMIT).forEach((c, j) =>
      op.set([...chunkPrefix(blob), i + j], c)
    );
    const res = await op.commit();
    if (!res.ok) throw new Error("CFE bill PDF chunk write failed");
  }
}

async function deleteChunks(kv: Deno.Kv, blob: string): Promise<void> {
  for await (const e of kv.list({ prefix: chunkPrefix(blob) })) await kv.delete(e.key);
}

/**
 * Stores `bill` (its `pdf.blob` is set here when `pdfBytes` is given; without it the bill keeps
 * the PDF it had). Returns the bill as stored.
 */
export async function putCfeBill(
  kv: Deno.Kv,
  bill: Omit<CfeBill, "pdf"> & { pdf: { name: string } | null },
  pdfBytes: Uint8Array | null,
): Promise<CfeBill> {
  const key = billKey(bill.station_id, bill.period);
  for (;;) {
    const prev = await kv.get<CfeBill>(key);
    let pdf = prev.value?.pdf ?? null;
    let blob: string | null = null;
    if (pdfBytes && bill.pdf) {
      blob = crypto.randomUUID();
      await writeChunks(kv, blob, pdfBytes);
      pdf = { name: bill.pdf.name, size: pdfBytes.length, blob };
    }
    const stored: CfeBill = { ...bill, pdf };
    const res = await kv.atomic().check(prev).set(key, stored).commit();
    if (res.ok) {
      const old = prev.value?.pdf?.blob;
      if (blob && old && old !== blob) await deleteChunks(kv, old);
      return stored;
    }
    if (blob) await deleteChunks(kv, blob);
  }
}

/** The PDF of the station's CFE bill of `period`, or null. */
export async function getCfeBillPdf(
  kv: Deno.Kv,
  stationId: number,
  period: string,
): Promise<{ name: string; bytes: Uint8Array<ArrayBuffer> } | null> {
  const bill = await getCfeBill(kv, stationId, period);
  if (!bill?.pdf) return null;
  const bytes = new Uint8Array(bill.pdf.size);
  let at = 0;
  for await (const e of kv.list<Uint8Array>({ prefix: chunkPrefix(bill.pdf.blob) })) {
    bytes.set(e.value, at);
    at += e.value.length;
  }
  return at === bill.pdf.size ? { name: bill.pdf.name, bytes } : null;
}
