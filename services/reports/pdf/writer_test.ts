import assert from "node:assert/strict";
import { PdfWriter } from "./writer.ts";
import { pdfText } from "../../../tests/_pdf_text.ts";

Deno.test("PdfWriter starts a new page when one is full and replaces undrawable text", async () => {
  const w = await PdfWriter.create("Test", "Energy Portal");
  w.heading("Título ñ", 18);
  w.table(
    [{ header: "Unidad", width: 1 }, { header: "Total", width: 1, align: "right" }],
    Array.from({ length: 90 }, (_, i) => [`Depto ${i + 1}`, `$${i}.00 MXN`]),
  );
  w.line("Nombre", "日本 Straße");
  const bytes = await w.save();
  const { pages, lines } = await pdfText(bytes);
  assert.equal(pages, 2);
  assert.equal(lines[0], "Título ñ");
  assert.ok(lines.includes("Depto 90"));
  assert.ok(lines.includes("$89.00 MXN"));
  assert.ok(lines.includes("?? Straße"));
});
