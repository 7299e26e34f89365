/**
 * Fiscal data in Settings (issue 31): a tenant or owner saves it (RFC read in capitals, use G03
 * by default), a refused form answers 400 in the reader's language and saves nothing, an admin
 * has no card.
 */
import assert from "node:assert/strict";
import { account, call, testApp } from "./_helpers.ts";
import { getFiscalData } from "../db/fiscal.ts";

const FORM = {
  rfc: "lopa800101ab1",
  legal_name: "ANA MARIA LOPEZ",
  tax_system: "612",
  zip: "64000",
};

Deno.test("a tenant saves fiscal data; bad input is refused in Spanish and saves nothing", async () => {
  const t = await testApp();
  try {
    const tenant = await account(t, "user", { language: "es" });
    const token = tenant.token;
    let html = await (await call(t, "GET", "/user/settings", { token })).text();
    assert.match(html, /data-testid="fiscal-data"/);
    assert.match(html, /action="\/user\/settings\/fiscal"/);
    const bad = await call(t, "POST", "/user/settings/fiscal", {
      token,
      form: { ...FORM, rfc: "XAXX010101000", zip: "640" },
    });
    assert.equal(bad.status, 400);
    html = await bad.text();
    assert.match(html, /Un RFC genérico no sirve para una factura a su nombre/);
    assert.match(html, /El código postal tiene 5 dígitos/);
    assert.equal(await getFiscalData(t.deps.kv, tenant.user.id), null);
    const mismatch = await call(t, "POST", "/user/settings/fiscal", {
      token,
      form: { ...FORM, tax_system: "601" },
    });
    assert.equal(mismatch.status, 400);
    assert.match(await mismatch.text(), /no corresponde al tipo de persona de su RFC/);
    const ok = await call(t, "POST", "/user/settings/fiscal", { token, form: FORM });
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get("location"), "/user/settings?fiscal_saved=1#fiscal");
    assert.deepEqual(await getFiscalData(t.deps.kv, tenant.user.id), {
      ...FORM,
      rfc: "LOPA800101AB1",
      use: "G03",
    });
    html = await (await call(t, "GET", "/user/settings?fiscal_saved=1", { token })).text();
    assert.match(html, /Se guardaron sus datos fiscales/);
    assert.match(html, /value="LOPA800101AB1"/);
    const removed = await call(t, "POST", "/user/settings/fiscal/remove", { token });
    assert.equal(removed.status, 303);
    assert.equal(await getFiscalData(t.deps.kv, tenant.user.id), null);
  } finally {
    t.close();
  }
});

Deno.test("an owner has the card; an admin has none and cannot post it", async () => {
  const t = await testApp();
  try {
    const owner = await account(t, "customer", { language: "en" });
    const html = await (await call(t, "GET", "/customer/settings", { token: owner.token })).text();
    assert.match(html, /Tax data \(CFDI\)/);
    const admin = await account(t, "admin");
    const page = await (await call(t, "GET", "/admin/settings", { token: admin.token })).text();
    assert.doesNotMatch(page, /data-testid="fiscal-data"/);
    const res = await call(t, "POST", "/admin/settings/fiscal", { token: admin.token, form: FORM });
    assert.equal(res.status, 403);
    assert.equal(await getFiscalData(t.deps.kv, admin.user.id), null);
  } finally {
    t.close();
  }
});
