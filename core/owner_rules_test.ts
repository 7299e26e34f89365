import assert from "node:assert/strict";
import {
  dataQuality,
  invoiceFileName,
  lowUptime,
  monthChoices,
  phaseSplit,
} from "./owner_rules.ts";

Deno.test("month choices: the current month and the 11 before, across the year end", () => {
  const m = monthChoices({ year: 2026, month: 3 });
  assert.equal(m.length, 12);
  assert.equal(m[0], "2026-03");
  assert.equal(m[3], "2025-12");
  assert.equal(m[11], "2025-04");
});

Deno.test("phase split: measured phases win, else 40/35/25 of the total", () => {
  assert.deepEqual(phaseSplit(100, [10, 20, 30]), [10, 20, 30]);
  assert.deepEqual(phaseSplit(100, [0, 0, 0]), [40, 35, 25]);
  assert.deepEqual(phaseSplit(0, []), [0, 0, 0]);
});

Deno.test("data quality is Excellent from 95 % and the note shows below", () => {
  assert.equal(dataQuality(95), "excellent");
  assert.equal(dataQuality(94.9), "good");
  assert.equal(dataQuality(null), "good");
  assert.equal(lowUptime(94.9), true);
  assert.equal(lowUptime(95), false);
  assert.equal(lowUptime(null), false);
});

Deno.test("invoice file name keeps the month and language and makes the name safe", () => {
  assert.equal(
    invoiceFileName("Residencial Las Palmas", "2026-10", "es"),
    "invoice_Residencial_Las_Palmas_2026-10_es.pdf",
  );
  assert.equal(invoiceFileName("Ñandú / Sur", "2026-01", "en"), "invoice_Nandu_Sur_2026-01_en.pdf");
});
