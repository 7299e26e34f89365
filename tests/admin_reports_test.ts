/**
 * The admin report pages (spec 001 section 2): the station report of a period, the unit
 * report of a year, the recalculation form (validation texts verbatim, nothing changes on bad
 * input) and the PDF download links, all working without JavaScript.
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { assertIncludesAll, call, type TestApp, testsWith } from "./_helpers.ts";
import { runBilling } from "../services/billing/mod.ts";
import { getUnitBillOf } from "../db/bills.ts";
import { createZone } from "../db/zones.ts";
import { updateDevice } from "../db/devices.ts";
import { defaultZone } from "../core/zone.ts";
import { pdfText } from "./_pdf_text.ts";

async function world() {
  const w = await billingWorld({ owner: { full_name: "Carmen Núñez" } });
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  return w;
}

const test = testsWith(world, (w) => w.t.close());

async function page(t: TestApp, path: string, token: string, status = 200) {
  const res = await call(t, "GET", path, { token });
  assert.equal(res.status, status, `GET ${path}`);
  return await res.text();
}

/** The text of a page without tags, spaces collapsed. */
const text = (html: string) =>
  html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ").replace(
    /&#x27;|&#39;/g,
    "'",
  ).replace(/&amp;/g, "&").replace(/\s+/g, " ");

test("the station report shows the period's bills, both summaries, profits and a unit", async (w) => {
  const html = await page(
    w.t,
    `/admin/report/station/${w.stationId}?period=2026-01&unit=unit_2`,
    w.admin,
  );
  const s = text(html);
  assertIncludesAll(s, [
    "Station Report",
    "Norte · Monterrey",
    "ST-B1",
    "Carmen Núñez",
    "Tiered",
    "Monthly",
    "500.50 kWh",
    "Tenant Billing Summary",
    "929.74 MXN", // 336.40 + 593.34
    "80.00 MXN", // base tariffs
    "721.50 MXN", // energy
    "Commission (10%) $72.15 MXN",
    "2 unit(s) × $25.00 MXN $50.00 MXN",
    "Tax (16%) $19.54 MXN",
    "141.69 MXN",
    "Provider Profit $122.15 MXN",
    "Customer Profit $788.05 MXN",
    "Select Unit",
    "Depto 2",
    "593.34 MXN",
  ]);
  assert.match(html, /<svg[^>]*role="img"/);
  assert.match(
    html,
    new RegExp(`href="/admin/report/station/${w.stationId}/unit/unit_2\\?month=2026-01"`),
  );
  assert.match(
    html,
    new RegExp(
      `/admin/report/station/${w.stationId}/pdf\\?type=customer&amp;period=2026-01&amp;language=es`,
    ),
  );
  assert.doesNotMatch(html, /data-testid="no-bills-notice"/);
  // A period without bills: the notice to the unit billing (a monthly zone).
  const empty = await page(w.t, `/admin/report/station/${w.stationId}?period=2026-02`, w.admin);
  assert.match(empty, /data-testid="no-bills-notice"/);
  assert.match(empty, /href="\/admin\/units-billing"/);
  assert.doesNotMatch(empty, /data-testid="unit-breakdown"/);
  // Unknown stations: 404 with the way back.
  const missing = await page(w.t, "/admin/report/station/999999", w.admin, 404);
  assert.match(missing, /Station Not Found/);
});

test("the unit report lists the year's periods and opens the asked one with its tiers", async (w) => {
  const html = await page(
    w.t,
    `/admin/report/station/${w.stationId}/unit/unit_1?month=2026-01`,
    w.admin,
  );
  const s = text(html);
  assertIncludesAll(s, [
    "Depto 1 · Monthly Report",
    "Norte · Monterrey",
    "Pricing Zone",
    "Tiered Pricing",
    "Low Level · Up to 150 kWh",
    "Middle Level · Up to 280 kWh",
    "High Level · Over 280 kWh",
    "Latest Period 200.00 kWh",
    "January 2026",
    "336.40 MXN",
    "Low Level · 150 kWh × 1: $150.00 MXN",
    "Middle Level · 50 kWh × 2: $100.00 MXN",
    "Tax Base $290.00 MXN",
    "Tax (16%) $46.40 MXN",
    "Final Bill $336.40 MXN",
    "Recalculate",
    "Extended Range",
    "Manual Input",
  ]);
  assert.match(html, /<li id="period-2026-01"[^>]*><details open="">/);
  assert.match(html, /<li id="period-2026-12" class="period-row period-future"/);
  assert.match(html, /data-status="not_saved"/);
  assert.match(html, /data-status="future"/);
  // Only the period with a bill offers the recalculation.
  assert.equal(html.match(/class="recalc-dialog"/g)?.length, 1);
  for (const l of ["en", "es", "de"]) {
    assert.match(
      html,
      new RegExp(`pdf\\?type=unit&amp;period=2026-01&amp;unit=unit_1&amp;language=${l}`),
    );
  }
  const gone = await page(w.t, `/admin/report/station/${w.stationId}/unit/unit_9`, w.admin, 404);
  assert.match(gone, /Unit Not Found/);
  assert.match(text(gone), /The unit you're looking for could not be found\./);
  assert.match(gone, new RegExp(`href="/admin/report/station/${w.stationId}"`));
});

test("the recalculation form refuses bad input with the spec's texts and changes nothing", async (w) => {
  const before = (await getUnitBillOf(w.t.deps.kv, w.stationId, "2026-01", "unit_1"))!;
  const path = `/admin/report/station/${w.stationId}/unit/unit_1/recalculate`;
  const base = { bill_id: String(before.id), period: "2026-01", year: "2026" };
  /** What is wrong with each manual consumption, after "Invalid consumption input: ". */
  const badConsumption: Record<string, string> = {
    "": "Consumption value is required",
    abc: "Invalid number format",
    "0": "Consumption must be greater than 0",
    "20 000": "Consumption seems too high (max 10,000 kWh)",
  };
  type Case = [form: Record<string, string>, message: string];
  const cases: Case[] = [
    [{}, "Please select a recalculation method."],
    ...Object.entries(badConsumption).map(([energy_consumption, problem]): Case => [
      { recalculation_method: "manual_input", energy_consumption },
      `Invalid consumption input: ${problem}`,
    ]),
    [{ recalculation_method: "method_9" }, "Please select a recalculation method."],
  ];
  for (const [form, message] of cases) {
    const res = await call(w.t, "POST", path, { token: w.admin, form: { ...base, ...form } });
    assert.equal(res.status, 400, JSON.stringify(form));
    const s = text(await res.text());
    assert.ok(
      s.includes(`Failed to recalculate bill: ${message}`),
      `${JSON.stringify(form)}: ${message}`,
    );
  }
  const wrongBill = await call(w.t, "POST", path, {
    token: w.admin,
    form: {
      ...base,
      bill_id: "999",
      recalculation_method: "manual_input",
      energy_consumption: "5",
    },
  });
  assert.equal(wrongBill.status, 404);
  await wrongBill.body?.cancel();
  const after = await getUnitBillOf(w.t.deps.kv, w.stationId, "2026-01", "unit_1");
  assert.deepEqual(after, before);
});

test("a manual recalculation updates the bill and the report says so", async (w) => {
  const bill = (await getUnitBillOf(w.t.deps.kv, w.stationId, "2026-01", "unit_1"))!;
  const res = await call(
    w.t,
    "POST",
    `/admin/report/station/${w.stationId}/unit/unit_1/recalculate`,
    {
      token: w.admin,
      form: {
        bill_id: String(bill.id),
        period: "2026-01",
        year: "2026",
        recalculation_method: "manual_input",
        energy_consumption: "1 00,5",
        override_reason: "",
      },
    },
  );
  assert.equal(res.status, 303);
  const location = res.headers.get("location")!;
  assert.equal(
    location,
    `/admin/report/station/${w.stationId}/unit/unit_1?period=2026-01&done=recalculated&method=manual_input`,
  );
  const after = (await getUnitBillOf(w.t.deps.kv, w.stationId, "2026-01", "unit_1"))!;
  // 100.5 kWh × 1 = 100.50; tax 16 % of 140.50 = 22.48.
  assert.equal(after.energy_consumption, 100.5);
  assert.equal(after.total_cost, 16298);
  assert.equal(after.recalculation_method, "manual_input");
  assert.equal(after.override_reason, "Recalculated using manual consumption input: 100.5 kWh");
  const s = text(await page(w.t, location, w.admin));
  assert.ok(
    s.includes("Bill for January 2026 has been recalculated successfully using Manual Input."),
  );
  assert.ok(s.includes("Recalculated"));
  assert.ok(s.includes("162.98 MXN"));
});

/** `GET` of the station's report PDF with `query`, as the admin. */
function reportPdf(w: Awaited<ReturnType<typeof world>>, query: string) {
  return call(w.t, "GET", `/admin/report/station/${w.stationId}/pdf?${query}`, { token: w.admin });
}

test("the report pages' PDF links download the PDF or come back with the failure text", async (w) => {
  const res = await reportPdf(w, "type=unit&period=2026-01&unit=unit_2&language=de");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.equal(
    res.headers.get("content-disposition"),
    `attachment; filename="monthly_report_${w.stationId}_unit_2_2026-01_de.pdf"`,
  );
  const pdf = await pdfText(new Uint8Array(await res.arrayBuffer()));
  assert.ok(pdf.lines.includes("593,34 $ MXN"));
  const cust = await reportPdf(w, "type=customer&period=2026-01&language=es");
  assert.equal(cust.status, 200);
  assert.match(cust.headers.get("content-disposition")!, /customer_report_\d+_2026-01_es\.pdf/);
  await cust.body?.cancel();
  const none = await reportPdf(w, "type=unit&period=2026-03&unit=unit_1&language=en");
  assert.equal(none.status, 303);
  const back = none.headers.get("location")!;
  assert.equal(
    back,
    `/admin/report/station/${w.stationId}/unit/unit_1?report_error=1&period=2026-03`,
  );
  assert.ok(
    text(await page(w.t, back, w.admin)).includes("Failed to generate report. Please try again."),
  );
  const junk = await call(w.t, "GET", `/admin/report/station/${w.stationId}/pdf?type=x`, {
    token: w.admin,
  });
  assert.equal(junk.status, 303);
  await junk.body?.cancel();
});

test("the billing lists offer each bill's report in English and Spanish", async (w) => {
  const q = `zone_id=${w.zoneId}&year=2026&period=2026-01`;
  const units = await page(w.t, `/admin/units-billing?${q}`, w.admin);
  for (const unit of ["unit_1", "unit_2"]) {
    for (const l of ["en", "es"]) {
      assert.match(
        units,
        new RegExp(
          `/admin/report/station/${w.stationId}/pdf\\?type=unit&amp;period=2026-01&amp;unit=${unit}&amp;language=${l}"`,
        ),
      );
    }
  }
  assert.doesNotMatch(units, /language=de/);
  const stations = await page(w.t, `/admin/stations-billing?${q}`, w.admin);
  assert.match(
    stations,
    new RegExp(
      `/admin/report/station/${w.stationId}/pdf\\?type=customer&amp;period=2026-01&amp;language=es"`,
    ),
  );
  assert.match(text(stations), /Download Customer Report/);
});

test("a bimonthly station's reports list bimesters and point to station billing", async (w) => {
  const zone = await createZone(w.t.deps.kv, {
    ...defaultZone("Bimestral"),
    billing_type: "bimonthly",
    price_low: 1,
  }, Date.now());
  const moved = await updateDevice(w.t.deps.kv, w.stationId, (d) => ({ ...d, zone_id: zone.id }));
  assert.ok(moved.ok);
  const html = await page(w.t, `/admin/report/station/${w.stationId}?period=2025-03-04`, w.admin);
  assert.match(html, /<option value="2026-11-12"/);
  assert.match(html, /<option value="2025-01-02"/);
  assert.doesNotMatch(html, /<option value="2026-01"/);
  assert.match(html, /data-testid="no-bills-notice"/);
  assert.match(html, /href="\/admin\/stations-billing"/);
  const unit = await page(
    w.t,
    `/admin/report/station/${w.stationId}/unit/unit_1?year=2025`,
    w.admin,
  );
  assert.match(text(unit), /Depto 1 · Bimonthly Report/);
  assert.equal(unit.match(/class="period-row[^"]*" data-period=/g)?.length, 6);
  assert.match(unit, /id="period-2025-11-12"/);
});
