/**
 * The building's CFE bill (issue 34, item 5): the owner enters it on their billing page (with
 * its PDF) and reads it against the tenants' bills and the station bill of the same period;
 * bad input is refused in the reader's language and changes nothing; another owner's station
 * is not found; a master meter on the station fills the kWh and is never billed as a unit; the
 * admin enters it from the station's page.
 */
import assert from "node:assert/strict";
import { call, created, sensorBody, stationBody, type TestApp } from "./_helpers.ts";
import { billingWorld, meter } from "./_billing_world.ts";
import { runBilling } from "../services/billing/mod.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { getCfeBill } from "../db/cfe_bills.ts";
import { formatter } from "../core/format.ts";

const T0 = Date.parse("2026-12-03T15:00:00.000Z");
const PDF = new TextEncoder().encode(
  "%PDF-1.4\n% CFE recibo\n" + "x".repeat(150_000) + "\n%%EOF\n",
);

/** Posts a multipart form (fields and an optional file `pdf`) as the bearer of `token`. */
function postForm(
  t: TestApp,
  path: string,
  token: string,
  fields: Record<string, string>,
  pdf?: { name: string; bytes: Uint8Array<ArrayBuffer> },
) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (pdf) body.append("pdf", new File([pdf.bytes], pdf.name, { type: "application/pdf" }));
  return t.app.request(`http://localhost${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, origin: "http://localhost", host: "localhost" },
    body,
  });
}

/** The text of the element with `data-testid="id"` (no tags). */
function textOf(html: string, id: string, n = 400): string {
  const i = html.indexOf(`data-testid="${id}"`);
  assert.ok(i >= 0, `no ${id}`);
  return html.slice(i, i + n).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

const en = formatter("en");
/** An amount as the trend's cells show it (the currency is in the headings). */
const amount = (cents: number) => en.money(cents, "MXN").replace(/\s*MXN$/, "");

Deno.test("owner: the CFE bill entered with its PDF, read against the tenants' bills and the station bill", async () => {
  const w = await billingWorld({ now: T0, owner: { language: "en" } });
  try {
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 300.5);
    assert.deepEqual((await runBilling(w.t.deps, w.zoneId, "2026-11")).failures, []);
    const units = await listUnitBills(w.t.deps.kv, w.stationId, "2026-11");
    const [station] = await listCustomerBills(w.t.deps.kv, w.stationId);
    const tenants = units.reduce((s, b) => s + b.total_cost, 0);

    const res = await postForm(w.t, "/customer/billing/cfe-bill", w.owner!.token, {
      station: String(w.stationId),
      period: "2026-11",
      kwh: "600",
      kw: "",
      amount: "1500.00",
    }, { name: "recibo.pdf", bytes: PDF });
    assert.equal(res.status, 303, await res.clone().text());
    assert.equal(
      res.headers.get("location"),
      `/customer/billing?year=2026&cfe_saved=1#cfe-${w.stationId}`,
    );
    const stored = await getCfeBill(w.t.deps.kv, w.stationId, "2026-11");
    assert.equal(stored?.amount, 150_000);
    assert.equal(stored?.kwh_source, "entered");

    const html = await (await call(w.t, "GET", "/customer/billing?year=2026&cfe_saved=1", {
      token: w.owner!.token,
    })).text();
    assert.match(textOf(html, "cfe-saved"), /The CFE bill was saved/);
    // 600 − (200 + 300.5) = 99.5 kWh not billed to any unit: 99.5 / 600 = 16.58… → 16.6 %.
    assert.match(textOf(html, "unbilled-2026-11", 120), /99\.50 +\(16\.6 %\)/);
    // Recovered: the tenants' bills over $1,500.00.
    const pct = Math.round(tenants / 150_000 * 1000) / 10;
    assert.match(textOf(html, "recovered-2026-11", 300), new RegExp(`${pct.toFixed(1)} %`));
    const row = /<tr[^>]*data-period="2026-11"[\s\S]*?<\/tr>/.exec(
      html.slice(html.indexOf("cfe-trend")),
    )?.[0] ?? "";
    assert.ok(row.includes(amount(tenants)), row);
    assert.ok(row.includes(amount(station.total_amount)), row);
    assert.ok(row.includes(amount(tenants - station.total_amount - 150_000)), row);

    // The same figures through the API, money in pesos.
    const api = await (await call(w.t, "GET", "/api/customer-billing-overview/cfe-reconciliation", {
      token: w.owner!.token,
    })).json();
    assert.equal(api.stations.length, 1);
    assert.deepEqual(
      { ...api.stations[0].periods[0] },
      {
        period: "2026-11",
        cfe_kwh: 600,
        cfe_kw: null,
        cfe_amount: 1500,
        kwh_source: "entered",
        has_pdf: true,
        billed_kwh: 500.5,
        unbilled_kwh: 99.5,
        unbilled_pct: 16.58,
        tenants_amount: tenants / 100,
        station_amount: station.total_amount / 100,
        recovered_pct: Math.round(tenants / 150_000 * 10_000) / 100,
        net_recovered_pct: Math.round((tenants - station.total_amount) / 150_000 * 10_000) / 100,
        balance: (tenants - station.total_amount - 150_000) / 100,
        currency: "MXN",
      },
    );

    // Its PDF, as uploaded.
    const pdf = await call(
      w.t,
      "GET",
      `/customer/billing/cfe-bill.pdf?station=${w.stationId}&period=2026-11`,
      { token: w.owner!.token },
    );
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    assert.deepEqual(new Uint8Array(await pdf.arrayBuffer()), PDF);

    // Entered again without a PDF: the figures change, the PDF stays.
    const again = await postForm(w.t, "/customer/billing/cfe-bill", w.owner!.token, {
      station: String(w.stationId),
      period: "2026-11",
      kwh: "550",
      amount: "1400",
    });
    assert.equal(again.status, 303);
    const now = await getCfeBill(w.t.deps.kv, w.stationId, "2026-11");
    assert.equal(now?.kwh, 550);
    assert.equal(now?.pdf?.blob, stored?.pdf?.blob);
  } finally {
    w.t.close();
  }
});

Deno.test("owner: a bad CFE bill is refused in the reader's language and changes nothing", async () => {
  const w = await billingWorld({ now: T0, owner: { language: "es" } });
  try {
    const base = { station: String(w.stationId), period: "2026-11", kwh: "600", amount: "1500" };
    const refused = async (
      fields: Record<string, string>,
      pdf: { name: string; bytes: Uint8Array<ArrayBuffer> } | undefined,
      status: number,
      text: RegExp,
    ) => {
      const res = await postForm(w.t, "/customer/billing/cfe-bill", w.owner!.token, fields, pdf);
      assert.equal(res.status, status);
      assert.match(await res.text(), text);
      assert.equal(await getCfeBill(w.t.deps.kv, w.stationId, "2026-11"), null);
    };
    await refused({ ...base, amount: "1500.505" }, undefined, 400, /hasta 2 decimales/);
    await refused({ ...base, amount: "0" }, undefined, 400, /mayor que cero/);
    await refused({ ...base, period: "2026-13" }, undefined, 400, /periodo válido/);
    // No master meter: the kWh are needed.
    await refused({ ...base, kwh: "" }, undefined, 400, /no tiene medidor principal/);
    const html = new TextEncoder().encode("<html>not a pdf</html>");
    await refused(base, { name: "x.pdf", bytes: html }, 400, /no es un PDF/);
    // Over the body's limit: 413, nothing read.
    const big = new Uint8Array(2 * 1024 * 1024 + 70_000);
    big.set(PDF.slice(0, 8));
    const res = await postForm(w.t, "/customer/billing/cfe-bill", w.owner!.token, base, {
      name: "big.pdf",
      bytes: big,
    });
    assert.equal(res.status, 413);
    await res.body?.cancel();
    assert.equal(await getCfeBill(w.t.deps.kv, w.stationId, "2026-11"), null);
    // The form comes back with what was typed.
    const again = await postForm(w.t, "/customer/billing/cfe-bill", w.owner!.token, {
      ...base,
      amount: "abc",
    });
    const page = await again.text();
    assert.equal(again.status, 400);
    assert.match(page, /name="kwh"[^>]*value="600"|value="600"[^>]*name="kwh"/);
  } finally {
    w.t.close();
  }
});

Deno.test("another owner's station, a tenant, a missing PDF: not found or refused", async () => {
  const w = await billingWorld({ now: T0, owner: true });
  try {
    // A station that is not theirs: not found, as if it did not exist.
    const res = await postForm(w.t, "/customer/billing/cfe-bill", w.owner!.token, {
      station: String(w.stationId + 1000),
      period: "2026-11",
      kwh: "1",
      amount: "1",
    });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const tenant = await postForm(w.t, "/customer/billing/cfe-bill", w.tenantTokens[0], {
      station: String(w.stationId),
      period: "2026-11",
      kwh: "1",
      amount: "1",
    });
    assert.notEqual(tenant.status, 303);
    await tenant.body?.cancel();
    assert.equal(await getCfeBill(w.t.deps.kv, w.stationId, "2026-11"), null);
    const none = await call(
      w.t,
      "GET",
      `/customer/billing/cfe-bill.pdf?station=${w.stationId}&period=2026-11`,
      { token: w.owner!.token },
    );
    assert.equal(none.status, 404);
    await none.body?.cancel();
  } finally {
    w.t.close();
  }
});

Deno.test("a master meter fills the CFE bill's kWh and is not billed as a unit; the admin enters it from the station's page", async () => {
  const w = await billingWorld({ now: T0, owner: { language: "en" } });
  try {
    // The station gets a third unit, the main feed, metered by a sensor marked as master.
    const put = await call(w.t, "PUT", `/api/devices/${w.stationId}`, {
      token: w.admin,
      json: stationBody({
        name: "Norte",
        serial: "ST-B1",
        stationId: "norte",
        zoneId: w.zoneId,
        mqtt: { username: "st-b1", password: "station-pass" },
        units: [
          { id: "unit_1", name: "Depto 1" },
          { id: "unit_2", name: "Depto 2" },
          { id: "unit_3", name: "Acometida" },
        ],
      }),
    });
    assert.equal(put.status, 200, await put.clone().text());
    const body = sensorBody({
      serial: "MAIN-1",
      unit: "unit_3",
      mqtt: { username: "main-1", password: "pw-main-0123456789" },
    });
    await created(w.t, w.admin, `/api/devices/${w.stationId}/sensors`, {
      ...body,
      config: { ...body.config, sensor: { ...body.config.sensor, master: true } },
    });
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 300.5);
    await meter(w.t, "MAIN-1", "2026-11", 612.25);
    assert.deepEqual((await runBilling(w.t.deps, w.zoneId, "2026-11")).failures, []);
    const units = await listUnitBills(w.t.deps.kv, w.stationId, "2026-11");
    assert.deepEqual(units.map((b) => b.unit_id).sort(), ["unit_1", "unit_2"]);

    const page = await call(w.t, "GET", `/admin/devices/station/${w.stationId}/cfe-bill`, {
      token: w.admin,
    });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /take the kWh from the station&#x27;s master meter/);
    const res = await postForm(w.t, `/admin/devices/station/${w.stationId}/cfe-bill`, w.admin, {
      period: "2026-11",
      kwh: "",
      kw: "3.5",
      amount: "2000",
    });
    assert.equal(res.status, 303, await res.clone().text());
    const stored = await getCfeBill(w.t.deps.kv, w.stationId, "2026-11");
    assert.equal(stored?.kwh, 612.25);
    assert.equal(stored?.kw, 3.5);
    assert.equal(stored?.kwh_source, "master_meter");

    const html = await (await call(w.t, "GET", "/customer/billing?year=2026", {
      token: w.owner!.token,
    })).text();
    // 612.25 − 500.5 = 111.75 kWh; 111.75 / 612.25 = 18.25… %.
    assert.match(textOf(html, "unbilled-2026-11", 120), /111\.75 +\(18\.3 %\)/);
    assert.match(textOf(html, "cfe-summary"), /from the master meter/);
  } finally {
    w.t.close();
  }
});
