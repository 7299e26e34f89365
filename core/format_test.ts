import assert from "node:assert/strict";
import { formatter } from "./format.ts";

Deno.test("formatter().money() writes cents with the locale's digits, the symbol and the code", () => {
  const cases: [string, number, string, string][] = [
    ["es", 960156, "MXN", "$9,601.56 MXN"],
    ["en", 960156, "MXN", "$9,601.56 MXN"],
    ["de", 960156, "MXN", "9.601,56 $ MXN"],
    ["en", 1200, "USD", "US$12.00 USD"],
    ["es", 1200, "EUR", "€12.00 EUR"],
    ["de", 1200, "EUR", "12,00 € EUR"],
    ["en", -500, "MXN", "-$5.00 MXN"],
    ["en", -0.4, "MXN", "$0.00 MXN"],
  ];
  for (const [lang, cents, currency, text] of cases) {
    assert.equal(formatter(lang).money(cents, currency), text, `${lang} ${cents} ${currency}`);
  }
});

Deno.test("formatter().price() keeps the precision a zone price is stored with", () => {
  const f = formatter("en");
  assert.equal(f.price(1.5, "MXN"), "$1.50 MXN");
  assert.equal(f.price(0.793, "MXN"), "$0.793 MXN");
  assert.equal(f.price(2.8121, "MXN"), "$2.8121 MXN");
  assert.equal(formatter("de").price(0.793, "EUR"), "0,793 € EUR");
});

Deno.test("formatter() dates: long and short per language, times in the business time zone", () => {
  const cases: [string, string, string][] = [
    ["es", "28 de noviembre de 2026", "28 nov 2026"],
    ["en", "November 28, 2026", "Nov 28, 2026"],
    ["de", "28. November 2026", "28. Nov. 2026"],
  ];
  for (const [lang, long, short] of cases) {
    const f = formatter(lang, -360);
    assert.equal(f.date("2026-11-28"), long);
    assert.equal(f.shortDate("2026-11-28"), short);
  }
  // 03:30 UTC on the 29th is still the 28th, 21:30, in Mexico City (UTC-6).
  const f = formatter("en", -360);
  const ms = Date.UTC(2026, 10, 29, 3, 30);
  assert.equal(f.date(ms), "November 28, 2026");
  assert.equal(f.dateTime(new Date(ms).toISOString()), "November 28, 2026, 21:30");
  assert.equal(f.date(null), "—");
});

Deno.test("formatter() numbers and percentages never read -0", () => {
  const f = formatter("de");
  assert.equal(f.number(1234.5), "1.234,50");
  assert.equal(f.kwh(12.5), "12,50 kWh");
  assert.equal(f.percent(-0.3), "0 %");
  assert.equal(formatter("en").percent(12.345, 1), "12.3 %");
});
