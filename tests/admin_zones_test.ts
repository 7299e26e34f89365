/** The zone pages: list, detail, form (without JavaScript), delete, and the level editor's rules. */
import assert from "node:assert/strict";
import { account, call, postStation, type TestApp, unitIds, withAdminApp } from "./_helpers.ts";
import { listZones, zoneHistory } from "../db/zones.ts";

/** Runs `fn` with a fresh app and an English-speaking admin's session cookie. */
const withApp = (fn: (t: TestApp, cookie: string) => Promise<void>) =>
  withAdminApp((t, token) => fn(t, `token=${token}`), { language: "en" });

async function html(t: TestApp, path: string, cookie: string, status = 200) {
  const res = await call(t, "GET", path, { cookie });
  assert.equal(res.status, status, path);
  return await res.text();
}

const basicForm = (over: Record<string, string> = {}) => ({
  name: "Monterrey",
  currency: "MXN",
  tariff_type: "residential",
  billing_type: "monthly",
  pricing_mode: "basic",
  prev_mode: "basic",
  price_low: "1.5",
  base_tariff: "40",
  tax_percentage: "16",
  ...over,
});

Deno.test("/admin/pricing shows the empty state, then the zones with their station count", async () => {
  await withApp(async (t, cookie) => {
    assert.match(await html(t, "/admin/pricing", cookie), /No Pricing Zones/);
    const res = await call(t, "POST", "/admin/zones/create", { cookie, form: basicForm() });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/admin/pricing?done=created");
    const page = await html(t, "/admin/pricing?done=created", cookie);
    assert.match(page, /Zone created successfully! Redirecting\.\.\./);
    assert.match(page, /Monterrey/);
    assert.match(page, /0 station\(s\)/);
    assert.match(page, /40\.00 MXN/);
    assert.match(page, /Basic/);
  });
});

Deno.test("the zone form has four sections and shows the spec's messages inline", async () => {
  await withApp(async (t, cookie) => {
    for (const path of ["/admin/zones/create", "/admin/zones/new"]) {
      const page = await html(t, path, cookie);
      assert.match(page, /Create Zone/);
      for (
        const s of [
          "Zone Information",
          "Pricing Configuration",
          "Customer Billing Configuration",
          "Additional Pricing Factors",
        ]
      ) assert.ok(page.includes(s), `${path}: ${s}`);
    }
    const res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: basicForm({ name: "", price_low: "-1", customer_commission: "120" }),
    });
    assert.equal(res.status, 400);
    const page = await res.text();
    assert.match(page, /Zone name is required/);
    assert.match(page, /Price per kWh cannot be negative/);
    assert.match(page, /Commission percentage must be between 0 and 100/);
    assert.equal((await listZones(t.deps.kv)).length, 0);
  });
});

Deno.test("without JavaScript, add and remove level re-render the form; tiered zones save", async () => {
  await withApp(async (t, cookie) => {
    const tiered = basicForm({
      pricing_mode: "tiered",
      prev_mode: "tiered",
      level_price_0: "1.08",
      level_threshold_0: "75",
      action: "add_level",
    });
    let res = await call(t, "POST", "/admin/zones/create", { cookie, form: tiered });
    assert.equal(res.status, 200);
    let page = await res.text();
    assert.match(page, /name="level_threshold_1"[^>]*value="175"/);
    assert.match(page, /Middle Level/);
    res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: { ...tiered, level_price_1: "2", level_threshold_1: "175", action: "remove_level:1" },
    });
    page = await res.text();
    assert.doesNotMatch(page, /name="level_threshold_1"/);
    // Turning seasonal on copies the levels with price 0.
    res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: { ...tiered, pricing_mode: "seasonal_tiered", action: "mode" },
    });
    page = await res.text();
    assert.match(page, /name="level_summer_threshold_0"[^>]*value="75"/);
    assert.match(page, /name="level_summer_price_0"[^>]*value="0"/);
    res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: { ...tiered, level_price_1: "2.5", level_threshold_1: "0", action: "save" },
    });
    assert.equal(res.status, 303);
    const [z] = await listZones(t.deps.kv);
    assert.equal(z.enable_levels, true);
    assert.equal(z.price_low, 1.08);
    assert.equal(z.price_middle, 2.5);
  });
});

Deno.test("the zone detail page shows cards, pricing table, history and stations; edit keeps history", async () => {
  await withApp(async (t, cookie) => {
    await call(t, "POST", "/admin/zones/create", { cookie, form: basicForm() });
    const [z] = await listZones(t.deps.kv);
    let page = await html(t, `/admin/zones/${z.id}`, cookie);
    for (
      const s of [
        "Zone Information",
        "Pricing Configuration",
        "Billing Factors",
        "Customer Billing",
        "Basic Pricing",
        "Price History",
        "Assigned Stations",
        "No Stations Assigned",
        "Edit Zone",
        "Delete Zone",
        "0 station(s)",
        "Energy cost for 100 kWh: $150.00 MXN",
      ]
    ) assert.ok(page.includes(s), s);
    assert.match(page, /<svg[^>]*aria-label="Price History"/);
    const edit = await html(t, `/admin/zones/${z.id}/edit`, cookie);
    assert.match(edit, /Edit Zone/);
    assert.match(edit, /name="name"[^>]*value="Monterrey"/);
    const res = await call(t, "POST", `/admin/zones/${z.id}/edit`, {
      cookie,
      form: basicForm({ price_low: "2" }),
    });
    assert.equal(res.headers.get("location"), "/admin/pricing?done=updated");
    assert.equal((await zoneHistory(t.deps.kv, z.id)).length, 2);
    page = await html(t, `/admin/zones/${z.id}`, cookie);
    assert.match(page, /200\.00 MXN/);
  });
});

Deno.test("deleting a zone asks first, is blocked while stations are assigned, then works", async () => {
  await withApp(async (t, cookie) => {
    await call(t, "POST", "/admin/zones/create", { cookie, form: basicForm() });
    const [z] = await listZones(t.deps.kv);
    const admin = await account(t, "admin");
    const stationId = await postStation(t, admin.token, {
      name: "Zoned",
      serial: "ZP-1",
      stationId: "zp_1",
      zoneId: z.id,
      mqtt: { username: "zp-1", password: "zone-pw-0123456789" },
      units: unitIds(1),
    });
    const page = await html(t, `/admin/zones/${z.id}`, cookie);
    assert.match(page, /1 station\(s\)/);
    assert.match(page, /Zoned/);
    assert.ok(page.includes(`/admin/report/station/${stationId}`));
    assert.ok(page.includes(`/admin/devices/station/${stationId}/data`));
    let res = await call(t, "POST", `/admin/zones/${z.id}/delete`, { cookie, form: {} });
    assert.equal(res.status, 303);
    const blocked = await html(t, res.headers.get("location")!, cookie);
    assert.match(
      blocked,
      /This zone has 1 assigned station\(s\)\. Please remove all stations before deleting the zone\./,
    );
    await (await call(t, "DELETE", `/api/devices/${stationId}`, { token: admin.token })).text();
    res = await call(t, "POST", `/admin/zones/${z.id}/delete`, { cookie, form: {} });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Are you sure you want to delete the zone Monterrey\?/);
    res = await call(t, "POST", `/admin/zones/${z.id}/delete`, {
      cookie,
      form: { confirm: "yes" },
    });
    assert.equal(res.headers.get("location"), "/admin/pricing?done=deleted");
    assert.equal((await listZones(t.deps.kv)).length, 0);
  });
});

Deno.test("unknown zones show 'Zone not found' with Go Back; non-admins are redirected", async () => {
  await withApp(async (t, cookie) => {
    for (const p of ["/admin/zones/99", "/admin/zones/abc", "/admin/zones/99/edit"]) {
      const page = await html(t, p, cookie, 404);
      assert.match(page, /Zone not found/);
      assert.match(page, /href="\/admin\/pricing"[^>]*>Go Back/);
    }
    for (const role of ["customer", "user"] as const) {
      const other = await account(t, role);
      const res = await call(t, "GET", "/admin/pricing", { cookie: `token=${other.token}` });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "/");
    }
  });
});

Deno.test("the zone form saves the owner's terms and additions; a version's month outside 2000-2100 is refused inline", async () => {
  await withApp(async (t, cookie) => {
    await call(t, "POST", "/admin/zones/create", { cookie, form: basicForm() });
    const [z] = await listZones(t.deps.kv);
    const path = `/admin/zones/${z.id}/edit`;
    const terms = {
      customer_commission: "25",
      customer_fee: "30",
      customer_tax: "8",
      fixed_charge_monthly: "50",
      minimum_monthly_kwh: "25",
      dac_limit_kwh: "250",
    };
    const res = await call(t, "POST", path, { cookie, form: basicForm(terms) });
    assert.equal(res.status, 303);
    await res.body?.cancel();
    const edit = await html(t, path, cookie);
    for (const [k, v] of Object.entries(terms)) {
      assert.match(edit, new RegExp(`name="${k}"[^>]*value="${v}"`), k);
    }
    assert.match(edit, /id="effective_from" type="month" min="2000-01" max="2100-12"/);
    const bad = await call(t, "POST", path, {
      cookie,
      form: basicForm({ price_change: "new", effective_from: "1999-12", customer_fee: "99" }),
    });
    assert.equal(bad.status, 400);
    assert.match(
      await bad.text(),
      /The month of the new prices must be between 2000-01 and 2100-12/,
    );
    assert.match(await html(t, path, cookie), /name="customer_fee"[^>]*value="30"/);
  });
});

Deno.test("a zone price typed with a decimal comma saves as typed; an empty price is refused", async () => {
  await withApp(async (t, cookie) => {
    let res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: basicForm({ price_low: "" }),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Enter a price \(a decimal comma is fine: 1,5\)/);
    assert.equal((await listZones(t.deps.kv)).length, 0);
    res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: basicForm({ price_low: "1.2.5" }),
    });
    assert.equal(res.status, 400, "an unreadable price is refused, not reinterpreted");
    assert.equal((await listZones(t.deps.kv)).length, 0);
    res = await call(t, "POST", "/admin/zones/create", {
      cookie,
      form: basicForm({ price_low: "1,5", tax_percentage: "16,5" }),
    });
    assert.equal(res.status, 303);
    const [z] = await listZones(t.deps.kv);
    assert.equal(z.price_low, 1.5);
    assert.equal(z.tax_percentage, 16.5);
    const form = await html(t, `/admin/zones/${z.id}/edit`, cookie);
    const input = /<input[^>]*name="price_low"[^>]*>/.exec(form)?.[0] ?? "";
    assert.match(input, /type="text"/, "no number field for the browser to rewrite");
    assert.match(input, /inputMode="decimal"/);
  });
});
