/**
 * PDF reports (spec 001 section 7): `POST /reports/generate` and `/api/reports/generate`
 * answer real PDFs whose text carries the bill's names and amounts, with the spec's file
 * names, to the roles DESIGN.md allows; bad bodies are 400 in the asker's language.
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { account, assertIncludesAll, call, testsWith } from "./_helpers.ts";
import { pdfText } from "./_pdf_text.ts";
import { runBilling } from "../services/billing/mod.ts";

async function world() {
  const w = await billingWorld({ owner: { full_name: "Carmen Núñez" } });
  assert.ok(w.owner);
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  // Billed on Tuesday 2026-02-03: due ten business days later, on 2026-02-17.
  w.t.deps.now = () => Date.parse("2026-02-03T18:00:00Z");
  const run = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(run.bills_created, 2);
  return { ...w, customer: w.owner.token };
}

const test = testsWith(world, (w) => w.t.close());

const unitBody = (stationId: number, extra: Record<string, unknown> = {}) => ({
  reportType: "monthly",
  stationId,
  unitId: "unit_1",
  month: "2026-01",
  language: "en",
  ...extra,
});

test("the monthly unit report is a PDF with the bill's tiers, amounts and names", async (w) => {
  const res = await call(w.t, "POST", "/api/reports/generate", {
    token: w.admin,
    json: unitBody(w.stationId),
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.equal(
    res.headers.get("content-disposition"),
    `attachment; filename="monthly_report_${w.stationId}_unit_1_2026-01_en.pdf"`,
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
  const { pages, lines } = await pdfText(bytes);
  assert.equal(pages, 1);
  const text = lines.join("\n");
  assertIncludesAll(text, [
    "Energy Portal",
    "Unit Bill Report",
    "January 2026 (2026-01)",
    "Norte (ST-B1)",
    "Depto 1 (unit_1)",
    "Monterrey",
    "200.00 kWh",
    "$150.00 MXN", // low tier 150 kWh × 1
    "$100.00 MXN", // middle tier 50 kWh × 2
    "$40.00 MXN", // base tariff
    "$290.00 MXN", // tax base
    "$46.40 MXN", // tax 16 %
    "$336.40 MXN", // total
    "Tax (16.0 %)",
    "2026-02-17",
    "Pending",
    "Zone Prices: Tiered",
  ], ` in:\n${text}`);
});

test("the customer report lists the unit bills, the station bill and both profits", async (w) => {
  const res = await call(w.t, "POST", "/reports/generate", {
    token: w.customer,
    json: { reportType: "customer", stationId: String(w.stationId), month: "2026-01" },
  });
  assert.equal(res.status, 200, await res.clone().text());
  // No language in the body: the asker's (English here).
  assert.equal(
    res.headers.get("content-disposition"),
    `attachment; filename="customer_report_${w.stationId}_2026-01_en.pdf"`,
  );
  const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).lines.join("\n");
  assertIncludesAll(text, [
    "Customer Billing Report",
    "Carmen Núñez",
    "Depto 1",
    "Depto 2",
    "$336.40 MXN",
    "$593.34 MXN",
    "$929.74 MXN", // tenant payments
    "$72.15 MXN", // commission 10 % of 721.50
    "$50.00 MXN", // fee 2 × 25
    "$19.54 MXN", // tax 16 % of 122.15
    "$141.69 MXN", // total amount
    "$122.15 MXN", // provider profit
    "$788.05 MXN", // customer profit 929.74 − 141.69
  ], ` in:\n${text}`);
});

test("reports are drawn in Spanish and German with local money formats", async (w) => {
  for (
    const [lang, words] of [["es", [
      "Reporte de factura de unidad",
      "Enero 2026",
      "$336.40 MXN",
      "Pendiente",
    ]], ["de", [
      "Bericht zur Einheitsrechnung",
      "336,40 $ MXN",
      "Steuerbemessungsgrundlage",
    ]]] as const
  ) {
    const res = await call(w.t, "POST", "/api/reports/generate", {
      token: w.admin,
      json: unitBody(w.stationId, { language: lang }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-disposition")!, new RegExp(`_${lang}\\.pdf"$`));
    const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).lines.join("\n");
    for (const word of words) assert.ok(text.includes(word), `${lang}: missing "${word}"`);
  }
});

test("POST /api/reports/generate lets each role have only its own reports", async (w) => {
  const other = await account(w.t, "customer");
  const gen = async (token: string | undefined, json: unknown) => {
    const res = await call(w.t, "POST", "/api/reports/generate", { token, json });
    await res.body?.cancel();
    return res.status;
  };
  const unit2 = unitBody(w.stationId, { unitId: "unit_2" });
  const cust = { reportType: "customer", stationId: w.stationId, month: "2026-01" };
  assert.equal(await gen(undefined, unitBody(w.stationId)), 401);
  // Tenant A owns unit_1 only; never the station bill.
  assert.equal(await gen(w.tenantTokens[0], unitBody(w.stationId)), 200);
  assert.equal(await gen(w.tenantTokens[0], unit2), 404);
  assert.equal(await gen(w.tenantTokens[1], unit2), 200);
  assert.equal(await gen(w.tenantTokens[0], cust), 403);
  // The station's customer sees everything of it; another customer nothing.
  assert.equal(await gen(w.customer, unit2), 200);
  assert.equal(await gen(w.customer, cust), 200);
  assert.equal(await gen(other.token, cust), 404);
  assert.equal(await gen(other.token, unit2), 404);
  assert.equal(await gen(w.admin, cust), 200);
});

test("bad report bodies are 400 and a period without a bill is 404, translated", async (w) => {
  const spanish = (await account(w.t, "admin", { language: "es" })).token;
  const cases: [unknown, number, string][] = [
    [[], 400, "Solicitud de reporte no válida"],
    [unitBody(w.stationId, { reportType: "weekly" }), 400, "El tipo de reporte debe ser"],
    [unitBody(w.stationId, { month: "2026-13" }), 400, "El mes debe tener la forma AAAA-MM"],
    [
      unitBody(w.stationId, { reportType: "bimester", period: "2026-02-03", month: undefined }),
      400,
      "El periodo debe tener la forma",
    ],
    [unitBody(w.stationId, { unitId: undefined }), 400, "Este reporte necesita una unidad"],
    [unitBody(w.stationId, { language: "fr" }), 400, "El idioma debe ser en, es o de"],
    [unitBody(-3), 400, "El id de la estación"],
    [unitBody(999999), 404, "Estación no encontrada"],
    [unitBody(w.stationId, { unitId: "unit_9" }), 404, "Unidad no encontrada"],
    [unitBody(w.stationId, { month: "2026-02" }), 404, "No hay factura para 2026-02"],
    [
      { reportType: "bimester_customer", stationId: w.stationId, period: "2026-01-02" },
      404,
      "No hay factura del cliente para 2026-01-02",
    ],
  ];
  for (const [json, status, message] of cases) {
    const res = await call(w.t, "POST", "/api/reports/generate", { token: spanish, json });
    assert.equal(res.status, status, JSON.stringify(json));
    const body = await res.json();
    assert.ok(body.message.startsWith(message), `${JSON.stringify(json)}: ${body.message}`);
  }
  const res = await call(w.t, "POST", "/api/reports/generate", {
    token: spanish,
    jsonText: "{nope",
  });
  assert.equal(res.status, 400);
  await res.body?.cancel();
});
