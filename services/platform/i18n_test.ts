import assert from "node:assert/strict";
import { createI18n, loadI18n, pickLanguage } from "./i18n.ts";

Deno.test("t() falls back to English, then to the key itself", () => {
  const i18n = createI18n({
    es: { a: { hola: "Hola {{name}}" } },
    en: { a: { hola: "Hello {{name}}", only_en: "Only English" } },
    de: {},
  });
  assert.equal(i18n.t("es")("a.hola", { name: "Ana" }), "Hola Ana");
  assert.equal(i18n.t("de")("a.hola", { name: "Ana" }), "Hello Ana");
  assert.equal(i18n.t("es")("a.only_en"), "Only English");
  assert.equal(i18n.t("es")("a.missing"), "a.missing");
});

Deno.test("pickLanguage() prefers the profile, then the stored choice, then Spanish", () => {
  assert.equal(pickLanguage("de", "en"), "de");
  assert.equal(pickLanguage(undefined, "en"), "en");
  assert.equal(pickLanguage(undefined, "fr"), "es");
  assert.equal(pickLanguage("xx", undefined), "es");
});

/** Every key path of a nested dictionary. */
function paths(node: unknown, prefix = ""): string[] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
    paths(v, prefix ? `${prefix}.${k}` : k)
  );
}

Deno.test("es, en and de have the same texts in every namespace (legal texts Spanish only)", async () => {
  const dir = new URL("../../locales/", import.meta.url);
  const namespaces = (lang: string) =>
    [...Deno.readDirSync(new URL(`${lang}/`, dir))].map((e) => e.name).sort();
  const es = namespaces("es");
  assert.deepEqual(namespaces("en"), es.filter((n) => n !== "legal.json"));
  assert.deepEqual(namespaces("de"), es.filter((n) => n !== "legal.json"));
  const read = (lang: string, file: string) =>
    JSON.parse(Deno.readTextFileSync(new URL(`${lang}/${file}`, dir)));
  for (const file of es.filter((n) => n !== "legal.json")) {
    const want = paths(read("en", file)).sort();
    for (const lang of ["es", "de"]) {
      const got = paths(read(lang, file)).sort();
      const missing = want.filter((p) => !got.includes(p));
      const extra = got.filter((p) => !want.includes(p));
      assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, `${lang}/${file}`);
    }
  }
  const i18n = await loadI18n();
  const terms = i18n.raw("es", "legal.terms") as { sections: unknown[] };
  assert.ok(terms.sections.length > 0, "the Spanish terms have sections");
});

Deno.test("placeholders are the same in every language", () => {
  const dir = new URL("../../locales/", import.meta.url);
  const flat = (node: unknown, prefix = ""): [string, string][] =>
    node !== null && typeof node === "object"
      ? Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
        flat(v, prefix ? `${prefix}.${k}` : k)
      )
      : [[prefix, String(node)]];
  const holes = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(",");
  for (const entry of Deno.readDirSync(new URL("en/", dir))) {
    const en = new Map(flat(JSON.parse(Deno.readTextFileSync(new URL(`en/${entry.name}`, dir)))));
    for (const lang of ["es", "de"]) {
      const other = flat(JSON.parse(Deno.readTextFileSync(new URL(`${lang}/${entry.name}`, dir))));
      for (const [key, text] of other) {
        assert.equal(holes(text), holes(en.get(key) ?? ""), `${lang}/${entry.name} ${key}`);
      }
    }
  }
});
