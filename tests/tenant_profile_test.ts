/**
 * The tenant profile on `/user/settings` (spec 001, entities): unit number (their current
 * units), floor area, billing address and emergency contact saved by the tenant, lease dates
 * from the tenancies; bad input is refused in the tenant's language and saves nothing; other
 * roles have no tenant profile.
 */
import assert from "node:assert/strict";
import { billingTest, type BillingWorld } from "./_billing_world.ts";
import { account, call } from "./_helpers.ts";

/** `Deno.test` in a fresh default billing world, closed however the test ends. */
const worldTest = (name: string, fn: (w: BillingWorld) => Promise<void>) =>
  billingTest(name, {}, fn);

const FORM = {
  unit_area_m2: "62,5",
  billing_street: "Av. Constitución",
  billing_street_number: "120",
  billing_colony: "Centro",
  billing_postal_code: "64000",
  billing_city: "Monterrey",
  billing_state: "Nuevo León",
  billing_country: "México",
  emergency_name: "Ana Torres",
  emergency_phone: "+52 81 1234 5678",
  emergency_relationship: "Hermana",
};

worldTest("a tenant keeps their billing address, emergency contact and floor area", async (w) => {
  const token = w.tenantTokens[0];
  let html = await (await call(w.t, "GET", "/user/settings", { token })).text();
  assert.match(html, /data-testid="tenant-profile"/);
  assert.match(html, /Número de unidad/);
  assert.match(html, /Depto 1 · Norte/);
  assert.match(html, /data-testid="leases"/);
  assert.match(html, /action="\/user\/settings\/profile"/);
  const res = await call(w.t, "POST", "/user/settings/profile", { token, form: FORM });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/user/settings?profile_saved=1#tenant-profile");
  html = await (await call(w.t, "GET", "/user/settings?profile_saved=1", { token })).text();
  assert.match(html, /Se guardó su perfil de inquilino/);
  for (const v of ["62.5", "Av. Constitución", "64000", "Nuevo León", "Ana Torres", "Hermana"]) {
    assert.ok(html.includes(`value="${v}"`), v);
  }
  // The other tenant's profile is their own.
  const other = await (await call(w.t, "GET", "/user/settings", { token: w.tenantTokens[1] }))
    .text();
  assert.doesNotMatch(other, /Ana Torres/);
});

worldTest(
  "a bad tenant profile is refused in the tenant's language and saves nothing",
  async (w) => {
    const token = w.tenantTokens[1]; // tenant B reads English
    const res = await call(w.t, "POST", "/user/settings/profile", {
      token,
      form: { ...FORM, unit_area_m2: "-3", emergency_phone: "12", billing_city: "x".repeat(200) },
    });
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /Failed to update the tenant profile/);
    assert.match(html, /Enter an area above 0 and up to 100,000 m²/);
    assert.match(html, /Phone must have 8 to 15 digits|8 to 15 digits/);
    assert.match(html, /value="Ana Torres"/, "the typed values come back");
    const page = await (await call(w.t, "GET", "/user/settings", { token })).text();
    assert.doesNotMatch(page, /Ana Torres/);
  },
);

worldTest("only tenants have a tenant profile", async (w) => {
  const owner = await account(w.t, "customer");
  const page = await (await call(w.t, "GET", "/customer/settings", { token: owner.token }))
    .text();
  assert.doesNotMatch(page, /tenant-profile/);
  const res = await call(w.t, "POST", "/customer/settings/profile", {
    token: owner.token,
    form: FORM,
  });
  assert.equal(res.status, 404);
  await res.body?.cancel();
});
