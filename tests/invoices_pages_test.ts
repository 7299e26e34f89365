/**
 * Where invoices show (issue 31): the tenant's billing page (status, PDF and XML, the request
 * invoice button or the way to Settings' fiscal data), the owner's billing page (the station
 * bill's invoice) and the admin's bill lists, each link only for a reader allowed to follow it.
 */
import assert from "node:assert/strict";
import { payBill } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { fiscal, FISCAL_A, FISCAL_OWNER, invoicing, KEY, posts } from "./_invoice_world.ts";
import { invoiceOfBill, invoicePass, listInvoices } from "../services/invoices/mod.ts";

/** A page's HTML as `token` reads it. */
async function html(p: { w: { t: Parameters<typeof call>[0] } }, path: string, token: string) {
  const res = await call(p.w.t, "GET", path, { token });
  assert.equal(res.status, 200, path);
  return await res.text();
}

const fileHref = (area: string, key: string, format: string) =>
  `${area}/invoices/file?key=${encodeURIComponent(key)}&amp;format=${format}`;

Deno.test("the tenant's billing page: the paid bill's invoice, valid, with its PDF and XML", () =>
  invoicing(async (p) => {
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    const key = `bill:${p.billA}`;
    const page = await html(p, "/user/billing?period=2026-11", p.w.tenantTokens[0]);
    assert.match(page, /data-invoice="valid"[^>]*>[\s\S]*?CFDI · Vigente/);
    assert.ok(page.includes(fileHref("/user", key, "pdf")), "the PDF link");
    assert.ok(page.includes(fileHref("/user", key, "xml")), "the XML link");
    const pdf = await call(p.w.t, "GET", fileHref("/user", key, "pdf").replace("&amp;", "&"), {
      token: p.w.tenantTokens[0],
    });
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    assert.equal(new TextDecoder().decode((await pdf.bytes()).slice(0, 5)), "%PDF-");
    // Tenant B's bill is unpaid: no invoice, and nothing of tenant A's.
    // (Its markup only: a first visit's page carries the stylesheet, which names the class.)
    const other = (await html(p, "/user/billing?period=2026-11", p.w.tenantTokens[1]))
      .replace(/<style[^>]*>[\s\S]*?<\/style>/g, "");
    assert.doesNotMatch(other, /invoice-line|invoices\/file/);
  }));

Deno.test("request invoice: first the way to fiscal data, then the button; issued once, asked again refused", () =>
  invoicing(async (p, f) => {
    const token = p.w.tenantTokens[0];
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps); // paid without fiscal data: a line of December's global
    const before = await html(p, "/user/billing?period=2026-11", token);
    assert.match(before, /href="\/user\/settings#fiscal"[^>]*>Agregue sus datos fiscales/);
    assert.doesNotMatch(before, /invoice-request/);
    const ask = (bill_id: string | number) =>
      call(p.w.t, "POST", "/user/billing/invoice", {
        token,
        form: { bill_id: String(bill_id), period: "2026-11" },
      });
    const noFiscal = await ask(p.billA);
    assert.equal(noFiscal.status, 409);
    assert.match(await noFiscal.text(), /Agregue sus datos fiscales en Configuración/);

    await fiscal(p, p.w.tenants[0], FISCAL_A);
    const offer = await html(p, "/user/billing?period=2026-11", token);
    assert.match(offer, /data-testid="invoice-request"[^>]*>Solicitar factura/);
    const done = await ask(p.billA);
    assert.equal(done.status, 303);
    const back = done.headers.get("location")!;
    assert.equal(back, `/user/billing?invoice=requested&period=2026-11#bill-${p.billA}`);
    const after = await html(p, back.split("#")[0], token);
    assert.match(after, /Se emitió su factura\./);
    assert.match(after, /data-invoice="valid"/);
    assert.doesNotMatch(after, /invoice-request/);
    assert.equal((await invoiceOfBill(p.w.t.deps, p.billA))!.kind, "named");

    const again = await ask(p.billA);
    assert.equal(again.status, 409);
    assert.match(await again.text(), /Este pago ya tiene su factura/);
    assert.equal(posts(f).length, 1, "one invoice");
    // Another tenant's bill is not found; a bill id that is no number is refused.
    const theirs = await ask(p.billB);
    assert.equal(theirs.status, 404);
    await theirs.body?.cancel();
    const bad = await ask("12abc");
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  }));

Deno.test("the owner's billing page and the admin's bill lists show the invoices with their files", () =>
  invoicing(async (p) => {
    await fiscal(p, p.w.owner!.id, FISCAL_OWNER);
    await fiscal(p, p.w.tenants[0], FISCAL_A);
    await payBill(p.w, p.billA);
    await invoicePass(p.w.t.deps);
    const stationKey = (await listInvoices(p.w.t.deps, { kind: "owner" }))[0].key;
    assert.match(stationKey, /^station:\d+$/);
    const owner = await html(p, "/customer/billing?year=2026", p.w.owner!.token);
    assert.match(owner, /data-testid="owner-customer-bills"[\s\S]*data-invoice="valid"/);
    assert.ok(owner.includes(fileHref("/customer", stationKey, "pdf")));
    assert.ok(!owner.includes(`key=bill`), "no tenant's invoice on the owner's page");

    const q = `zone_id=${p.w.zoneId}&year=2026&period=2026-11`;
    const units = await html(p, `/admin/units-billing?${q}`, p.w.admin);
    assert.ok(units.includes(fileHref("/admin", `bill:${p.billA}`, "xml")));
    assert.match(units, /data-invoice="valid"/);
    const stations = await html(p, `/admin/stations-billing?${q}`, p.w.admin);
    assert.ok(stations.includes(fileHref("/admin", stationKey, "pdf")));
  }));

Deno.test("the admin's Settings: the issuer read from Facturapi's organization, or why it is not", () =>
  invoicing(async (p, f) => {
    const page = await html(p, "/admin/settings", p.w.admin);
    const card = page.slice(page.indexOf('data-testid="issuer"'));
    assert.match(card, /ESCUELA KEMPER URGATE[\s\S]*EKU9003173C9[\s\S]*601 · General de Ley/);
    assert.match(card, /42501/);
    const asked = f.requests.filter((r) => r.path === "/v2/organizations/me");
    assert.deepEqual(asked.map((r) => [r.method, r.authorization]), [["GET", `Bearer ${KEY}`]]);
    // Kept a while: Settings seen again does not ask again.
    await html(p, "/admin/settings", p.w.admin);
    assert.equal(f.requests.filter((r) => r.path === "/v2/organizations/me").length, 1);
    // A key Facturapi refuses: the card says so and the page still answers.
    p.w.t.deps.config.facturapi = { ...p.w.t.deps.config.facturapi, key: "sk_test_wrong" };
    const refused = await html(p, "/admin/settings", p.w.admin);
    assert.match(refused, /data-testid="issuer"[\s\S]*Authentication failed: invalid API key/);
    // Tenants and owners keep their own fiscal data instead.
    const tenant = await html(p, "/user/settings", p.w.tenantTokens[0]);
    assert.doesNotMatch(tenant, /data-testid="issuer"/);
  }));
