/** The zone form's business tariff card: saved as a price version, refused inline when wrong. */
import assert from "node:assert/strict";
import { call, type TestApp, withAdminApp } from "./_helpers.ts";
import { listZones, zoneHistory } from "../db/zones.ts";

const withApp = (lang: "es" | "en" | "de", fn: (t: TestApp, cookie: string) => Promise<void>) =>
  withAdminApp((t, token) => fn(t, `token=${token}`), { language: lang });

const gdmth = (over: Record<string, string> = {}) => ({
  name: "Parque Apodaca",
  currency: "MXN",
  tariff_type: "industrial",
  billing_type: "monthly",
  pricing_mode: "basic",
  prev_mode: "basic",
  price_low: "0",
  base_tariff: "502.03",
  tax_percentage: "16",
  industrial_tariff: "on",
  distribution_enabled: "on",
  distribution_price: "57.74",
  capacity_enabled: "on",
  capacity_price: "401.78",
  tou_schedule: "cfe_central",
  price_base: "1.0222",
  price_intermedia: "1,5867",
  price_punta: "1.7219",
  capacity_floor_percentage: "70",
  power_factor_threshold: "",
  ...over,
});

Deno.test("a GDMTH zone saves its band schedule, band prices and capacity floor, and shows them again", async () => {
  await withApp("en", async (t, cookie) => {
    const page = await (await call(t, "GET", "/admin/zones/create", { cookie })).text();
    assert.match(page, /Business tariff \(time of use, demand\)/);
    assert.match(page, /CFE GDMTH, Región Central/);
    const res = await call(t, "POST", "/admin/zones/create", { cookie, form: gdmth() });
    assert.equal(res.status, 303);
    const [zone] = await listZones(t.deps.kv);
    assert.equal(zone.tou_schedule, "cfe_central");
    assert.equal(zone.price_base, 1.0222);
    assert.equal(zone.price_intermedia, 1.5867); // typed with a decimal comma
    assert.equal(zone.price_punta, 1.7219);
    assert.equal(zone.capacity_floor_percentage, 70);
    assert.equal(zone.power_factor_threshold, undefined);
    const edit = await (await call(t, "GET", `/admin/zones/${zone.id}/edit`, { cookie })).text();
    assert.match(edit, /<option value="cfe_central" selected/);
    assert.match(edit, /value="1.7219"/);
    // A new punta price from a month is a new price version; the old one keeps its price.
    const next = await call(t, "POST", `/admin/zones/${zone.id}/edit`, {
      cookie,
      form: gdmth({ price_punta: "1.8", price_change: "new", effective_from: "2026-03" }),
    });
    assert.equal(next.status, 303);
    const history = await zoneHistory(t.deps.kv, zone.id!);
    assert.ok(history.length >= 1);
    const [saved] = await listZones(t.deps.kv);
    assert.equal(saved.price_punta, 1.8);
  });
});

Deno.test("a zone without a band schedule saves none of the business fields", async () => {
  await withApp("en", async (t, cookie) => {
    const res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: gdmth({ tou_schedule: "", price_punta: "junk" }),
    });
    assert.equal(res.status, 303);
    const [zone] = await listZones(t.deps.kv);
    assert.equal("tou_schedule" in zone, false);
    assert.equal("price_punta" in zone, false);
  });
});

Deno.test("wrong business fields are refused inline in the reader's language and save nothing", async () => {
  await withApp("es", async (t, cookie) => {
    const res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: gdmth({ tou_schedule: "marte", price_punta: "-1", capacity_floor_percentage: "130" }),
    });
    assert.equal(res.status, 400);
    const page = await res.text();
    assert.match(page, /Elija un horario de bandas de la lista/);
    assert.match(page, /Los precios por banda deben estar entre 0 y 1,000 por kWh/);
    assert.match(page, /El mínimo de capacidad debe estar entre 0 y 100 %/);
    assert.equal((await listZones(t.deps.kv)).length, 0);
  });
  await withApp("de", async (t, cookie) => {
    const res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: gdmth({ power_factor_threshold: "80" }),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Die Schwelle des Leistungsfaktors ist 90 % oder 95 %/);
  });
});
