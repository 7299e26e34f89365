/**
 * The CFE presets as a Spanish-speaking admin reads them (the newcomer's issue): formal Spanish
 * (usted), each preset's date and sources in the note and in the picker, what the reference
 * confirms worded in Spanish, and every price it could not confirm marked on its own field.
 */
import assert from "node:assert/strict";
import { call, withAdminApp } from "./_helpers.ts";
import { CFE_PRESETS, presetFill } from "../core/cfe_presets.ts";

/** The text of the element with `data-testid="id"` (up to its closing `</div>`), without tags. */
const noteOf = (html: string) => {
  const i = html.indexOf('data-testid="preset-note"');
  return html.slice(i, html.indexOf("</div>", i)).replace(/<[^>]+>/g, "").replace(
    /&quot;/g,
    '"',
  );
};

Deno.test("CFE presets in Spanish: usted, date and sources shown, unconfirmed prices marked", () =>
  withAdminApp(async (t, token) => {
    for (const id of CFE_PRESETS) {
      const fill = presetFill(id);
      const html = await (await call(t, "GET", `/admin/zones/create?preset=${id}`, { token }))
        .text();
      const note = noteOf(html);
      if (fill.prices_date) assert.match(note, new RegExp(`Precios de ${fill.prices_date}\\.`), id);
      else assert.match(note, /Sin precios confirmados\./, id);
      assert.ok(note.includes(`Fuentes: ${fill.source}.`), `${id}: ${note}`);
      assert.match(note, /Verifíquelos con la tarifa vigente de CFE/, id);
      assert.doesNotMatch(note, /\b(prices|source|blocks|not found|confirmed)\b/, id);
      // Formal Spanish on the whole form: no "tú" imperatives.
      assert.doesNotMatch(html, /ingrésalos|ingrésalo|Verifícalos|Llena el|Elige/, id);
      const marks = html.match(/class="field-error"[^>]*>Precio sin confirmar: ingréselo</g) ?? [];
      assert.equal(marks.length, fill.missing.length, `${id}: ${fill.missing.join(", ")}`);
      if (fill.missing.length) assert.match(note, /quedan vacíos y marcados: ingréselos/, id);
    }
    const picker = await (await call(t, "GET", "/admin/zones/create", { token })).text();
    assert.match(
      picker,
      /<option value="cfe_1"[^>]*>CFE 1 \(doméstica\) · precios de 2024-01<\/option>/,
    );
    assert.match(picker, /<option value="cfe_1b">CFE 1B · sin precios confirmados<\/option>/);
    assert.match(picker, /Llene el formulario con los valores conocidos/);
  }, { language: "es" }));
