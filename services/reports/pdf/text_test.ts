import assert from "node:assert/strict";
import { encodable, moneyText, numberText } from "./text.ts";

const LATIN1 = new Set([...Array(256).keys()].filter((c) => c >= 32));

Deno.test("encodable() keeps Spanish and German letters and replaces what the font lacks", () => {
  assert.equal(encodable("Año Müller Straße", LATIN1), "Año Müller Straße");
  assert.equal(encodable("An\u0303o", LATIN1), "Año");
  assert.equal(encodable("1\u202f234 \u2212 5", LATIN1), "1 234 - 5");
  assert.equal(encodable("日本\tx", LATIN1), "?? x");
});

Deno.test("moneyText() formats integer cents per report language", () => {
  assert.equal(moneyText(123456, "MXN", "en"), "$1,234.56 MXN");
  assert.equal(moneyText(123456, "MXN", "es"), "$1,234.56 MXN");
  assert.equal(moneyText(123456, "EUR", "de"), "1.234,56 € EUR");
  assert.equal(moneyText(-5, "USD", "en"), "$-0.05 USD");
  assert.equal(numberText(1234.5, "de"), "1.234,50");
});
