import assert from "node:assert/strict";
import { encodable } from "./text.ts";
import { formatter } from "../../../core/format.ts";

const LATIN1 = new Set([...Array(256).keys()].filter((c) => c >= 32));

Deno.test("encodable() keeps Spanish and German letters and replaces what the font lacks", () => {
  assert.equal(encodable("Año Müller Straße", LATIN1), "Año Müller Straße");
  assert.equal(encodable("An\u0303o", LATIN1), "Año");
  assert.equal(encodable("1\u202f234 \u2212 5", LATIN1), "1 234 - 5");
  assert.equal(encodable("日本\tx", LATIN1), "?? x");
});

Deno.test("the reports' money, written by the one formatter, is drawable with the font", () => {
  const cases: [string, number, string, string][] = [
    ["en", 123456, "MXN", "$1,234.56 MXN"],
    ["es", 123456, "MXN", "$1,234.56 MXN"],
    ["de", 123456, "EUR", "1.234,56 € EUR"],
    ["en", -5, "USD", "-US$0.05 USD"],
  ];
  const winAnsi = new Set([...LATIN1, 0x20ac]);
  for (const [lang, cents, currency, text] of cases) {
    const money = formatter(lang).money(cents, currency);
    assert.equal(money, text);
    assert.equal(encodable(money, winAnsi), text);
  }
  assert.equal(formatter("de").number(1234.5), "1.234,50");
});
