/**
 * A small top-to-bottom writer over pdf-lib for the reports: A4 pages, Helvetica (WinAnsi),
 * headings, label/value lines, paragraphs that wrap, and tables; a new page starts when the
 * current one is full. Every text goes through {@link encodable}.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { encodable } from "./text.ts";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const GREY = rgb(0.42, 0.45, 0.5);
const INK = rgb(0.1, 0.12, 0.16);
const RULE = rgb(0.85, 0.87, 0.9);

/** A column of {@link PdfWriter.table}: its header and share of the width; numbers align right. */
interface Column {
  header: string;
  width: number;
  align?: "left" | "right";
}

/** Writes one document; call {@link PdfWriter.save} at the end. */
export class PdfWriter {
  private page!: PDFPage;
  private y = 0;
  private charset!: Set<number>;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.charset = new Set(font.getCharacterSet());
    this.newPage();
  }

  /** Starts a document with a title and author in its metadata. */
  static async create(title: string, author: string): Promise<PdfWriter> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const w = new PdfWriter(doc, font, bold);
    doc.setTitle(w.safe(title));
    doc.setAuthor(w.safe(author));
    doc.setCreator(w.safe(author));
    doc.setProducer(w.safe(author));
    return w;
  }

  /** Text the fonts can draw. */
  safe(text: string): string {
    return encodable(text, this.charset);
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  private room(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  private get width() {
    return A4[0] - 2 * MARGIN;
  }

  /** Cuts `text` to fit `max` points, with an ellipsis. */
  private fit(text: string, font: PDFFont, size: number, max: number): string {
    let s = this.safe(text);
    if (font.widthOfTextAtSize(s, size) <= max) return s;
    while (s.length > 1 && font.widthOfTextAtSize(`${s}...`, size) > max) s = s.slice(0, -1);
    return `${s}...`;
  }

  /** A heading: `size` 18 for the title, 12 for sections. */
  heading(text: string, size = 12) {
    this.room(size + 14);
    this.y -= size + (size > 14 ? 0 : 8);
    this.page.drawText(this.fit(text, this.bold, size, this.width), {
      x: MARGIN,
      y: this.y,
      size,
      font: this.bold,
      color: INK,
    });
    this.y -= 6;
    if (size <= 14) {
      this.page.drawLine({
        start: { x: MARGIN, y: this.y },
        end: { x: MARGIN + this.width, y: this.y },
        thickness: 0.6,
        color: RULE,
      });
      this.y -= 4;
    }
  }

  /** A label on the left and its value on the right of one line. */
  line(label: string, value: string, strong = false) {
    const size = 10;
    this.room(size + 6);
    this.y -= size + 5;
    const font = strong ? this.bold : this.font;
    const v = this.fit(value, font, size, this.width * 0.6);
    this.page.drawText(this.fit(label, font, size, this.width * 0.4 - 6), {
      x: MARGIN,
      y: this.y,
      size,
      font,
      color: strong ? INK : GREY,
    });
    this.page.drawText(v, {
      x: MARGIN + this.width - font.widthOfTextAtSize(v, size),
      y: this.y,
      size,
      font,
      color: INK,
    });
  }

  /** A paragraph wrapped to the width. */
  paragraph(text: string, size = 9) {
    const words = this.safe(text).split(/\s+/).filter(Boolean);
    let cur = "";
    const lines: string[] = [];
    for (const w of words) {
      const next = cur ? `${cur} ${w}` : w;
      if (this.font.widthOfTextAtSize(next, size) > this.width && cur) {
        lines.push(cur);
        cur = w;
      } else cur = next;
    }
    if (cur) lines.push(cur);
    for (const l of lines) {
      this.room(size + 4);
      this.y -= size + 4;
      this.page.drawText(this.fit(l, this.font, size, this.width), {
        x: MARGIN,
        y: this.y,
        size,
        font: this.font,
        color: INK,
      });
    }
  }

  /** Vertical space in points. */
  gap(points = 8) {
    this.y -= points;
  }

  /** A table with a bold header row; cells are cut to their column. */
  table(columns: Column[], rows: string[][]) {
    const size = 9;
    const total = columns.reduce((s, c) => s + c.width, 0);
    const widths = columns.map((c) => (c.width / total) * this.width);
    const draw = (cells: string[], font: PDFFont) => {
      this.room(size + 6);
      this.y -= size + 5;
      let x = MARGIN;
      cells.forEach((cell, i) => {
        const text = this.fit(cell, font, size, widths[i] - 6);
        const dx = columns[i].align === "right"
          ? widths[i] - 3 - font.widthOfTextAtSize(text, size)
          : 0;
        this.page.drawText(text, { x: x + dx, y: this.y, size, font, color: INK });
        x += widths[i];
      });
    };
    draw(columns.map((c) => c.header), this.bold);
    for (const r of rows) draw(r, this.font);
    this.gap(4);
  }

  /** The finished document. */
  save(): Promise<Uint8Array> {
    return this.doc.save();
  }
}
