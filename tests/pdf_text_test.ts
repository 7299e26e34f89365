import assert from "node:assert/strict";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { pdfText, showTexts } from "./_pdf_text.ts";

Deno.test("showTexts() decodes hex and literal strings shown with Tj", () => {
  assert.deepEqual(showTexts("BT <48E96C6C6F> Tj (a\\(b\\) \\361) Tj ET"), ["Héllo", "a(b) ñ"]);
});

Deno.test("pdfText() finds the text pdf-lib drew on every page, compressed or not", async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText("Señora Müller", { font, x: 10, y: 10 });
  doc.addPage().drawText("$1,234.56 MXN", { font, x: 10, y: 10 });
  for (const useObjectStreams of [true, false]) {
    const text = await pdfText(await doc.save({ useObjectStreams }));
    assert.equal(text.pages, 2);
    assert.deepEqual(text.lines, ["Señora Müller", "$1,234.56 MXN"]);
  }
});
