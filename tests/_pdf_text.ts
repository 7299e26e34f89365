/**
 * A small text extractor for the PDFs the portal draws (pdf-lib, standard fonts): inflates
 * each content stream and decodes the strings shown with `Tj` (hex or literal, WinAnsi).
 * Enough to assert that names and amounts appear; not a general PDF parser.
 */
import { PDFDocument } from "pdf-lib";

const latin = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
/** Bytes as a string of the same char codes (ISO-8859-1; TextDecoder's "latin1" is cp1252). */
const binary = (b: Uint8Array) => {
  let s = "";
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
};

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Decodes a PDF literal string body (escapes `\n`, `\(`, octal). */
function literal(s: string): string {
  return s.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) => {
    const map: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return map[e] ?? e;
  });
}

/** The shown strings of one content stream, one per `Tj`. */
export function showTexts(content: string): string[] {
  const win = new TextDecoder("windows-1252");
  const out: string[] = [];
  for (const m of content.matchAll(/(<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\))\s*Tj/g)) {
    const tok = m[1];
    if (tok.startsWith("<")) {
      const hex = tok.slice(1, -1).replace(/\s/g, "");
      const bytes = new Uint8Array(hex.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
      out.push(win.decode(bytes));
    } else out.push(win.decode(latin(literal(tok.slice(1, -1)))));
  }
  return out;
}

/** Every shown string of a PDF, in drawing order, and its page count. */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; lines: string[] }> {
  const raw = binary(bytes);
  const lines: string[] = [];
  for (const m of raw.matchAll(/\bobj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf("endstream", start);
    let body: Uint8Array = latin(raw.slice(start, end));
    if (/\/FlateDecode/.test(m[1])) {
      const len = /\/Length (\d+)/.exec(m[1]);
      if (len) body = body.slice(0, Number(len[1]));
      try {
        body = await inflate(body);
      } catch {
        continue;
      }
    }
    lines.push(...showTexts(binary(body)));
  }
  const doc = await PDFDocument.load(bytes);
  return { pages: doc.getPageCount(), lines };
}
