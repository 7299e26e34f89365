/**
 * The owner's pages as the newcomer's issue asks: "Download Invoice" only for a month with an
 * invoice; the billing page lists the periods that have bills (not eleven empty months), each
 * bill with its PDF report (the unit's or the station's, English or Spanish), and a failed
 * download comes back with "Error downloading report. Please try again."; the home shows each
 * figure once.
 */
import assert from "node:assert/strict";
import { billingWorld, meter, payBill } from "./_billing_world.ts";
import { listUnitBills } from "../db/bills.ts";
import { call, testsWith } from "./_helpers.ts";
import { pdfText } from "./_pdf_text.ts";
import { runBilling } from "../services/billing/mod.ts";

const NOW = Date.parse("2026-06-03T18:00:00Z");

async function world() {
  const w = await billingWorld({ owner: { language: "en" } });
  await meter(w.t, "SIM-A", "2026-03", 200);
  await meter(w.t, "SIM-B", "2026-03", 300.5);
  w.t.deps.now = () => NOW;
  assert.equal((await runBilling(w.t.deps, w.zoneId, "2026-03")).bills_created, 2);
  return { ...w, owner: w.owner! };
}

const test = testsWith(world, (w) => w.t.close());
const get = (w: Awaited<ReturnType<typeof world>>, path: string) =>
  call(w.t, "GET", path, { token: w.owner.token });

test("Download Invoice is offered only for a month with a finalized station bill", async (w) => {
  const billed = await (await get(w, `/customer/installations/${w.stationId}?month=2026-03`))
    .text();
  assert.match(billed, /data-testid="invoice-open"/);
  const none = await (await get(w, `/customer/installations/${w.stationId}?month=2026-04`))
    .text();
  assert.doesNotMatch(none, /data-testid="invoice-open"/);
  assert.match(none, /No bill for this month yet/);
});

test("the billing page lists only periods with bills; each bill has its PDF report", async (w) => {
  const html = await (await get(w, "/customer/billing?year=2026")).text();
  const sections = [...html.matchAll(/data-testid="period-section" data-period="([^"]+)"/g)]
    .map((m) => m[1]);
  assert.deepEqual(sections, ["2026-03"]);
  assert.doesNotMatch(html, /data-testid="period-empty"/);
  const unit = `/customer/billing/report?station=${w.stationId}&amp;unit=unit_1&amp;period=2026-03`;
  assert.ok(html.includes(`${unit}&amp;language=es`), "the unit report in Spanish");
  const station = `/customer/billing/report?station=${w.stationId}&amp;period=2026-03`;
  assert.ok(html.includes(`${station}&amp;language=en`), "the station report in English");

  const pdf = await get(
    w,
    `/customer/billing/report?station=${w.stationId}&unit=unit_1&period=2026-03&language=en`,
  );
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers.get("content-type"), "application/pdf");
  const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).lines.join("\n");
  assert.match(text, /Depto 1/);
  const st = await get(
    w,
    `/customer/billing/report?station=${w.stationId}&period=2026-03&language=es`,
  );
  assert.equal(st.status, 200);
  assert.equal(st.headers.get("content-type"), "application/pdf");
  await st.body?.cancel();

  // A period without a bill: back to the page with the download error.
  const none = await get(
    w,
    `/customer/billing/report?station=${w.stationId}&unit=unit_1&period=2026-04&language=en`,
  );
  assert.equal(none.status, 302);
  const back = none.headers.get("location")!;
  assert.equal(back, "/customer/billing?year=2026&report_error=1");
  assert.match(await (await get(w, back)).text(), /Error downloading report\. Please try again\./);
  // Bad input: 400, in the asker's language.
  const bad = await get(
    w,
    `/customer/billing/report?station=${w.stationId}&period=2026-03&language=de`,
  );
  assert.equal(bad.status, 400);
  await bad.body?.cancel();

  const empty = await (await get(w, "/customer/billing?year=2025")).text();
  assert.match(empty, /data-testid="periods-empty"[^>]*>No bills in 2025\./);
  assert.doesNotMatch(empty, /data-testid="period-section"/);
});

test("the owner's home shows each figure once", async (w) => {
  const html = (await (await get(w, "/customer")).text()).replace(/<!-- -->/g, "");
  for (const label of ["Current Power", "Today", "Monthly Yield", "Total"]) {
    const shown = html.match(new RegExp(`class="stat-label">${label}[^<]*<`, "g")) ?? [];
    assert.ok(shown.length <= 1, `${label} shown ${shown.length} times`);
  }
  assert.match(html, /class="stat-label">Total</);
  assert.doesNotMatch(html, /data-testid="owner-energy"/);
});

test("the invoice has its number, issue and due dates, and says billed and paid truthfully", async (w) => {
  const units = await listUnitBills(w.t.deps.kv, w.stationId, "2026-03");
  const first = units.find((b) => b.unit_id === "unit_1")!;
  await payBill(w, first.id);
  const res = await get(
    w,
    `/customer/installations/${w.stationId}/invoice?month=2026-03&language=en`,
  );
  assert.equal(res.status, 200);
  const lines = (await pdfText(new Uint8Array(await res.arrayBuffer()))).lines;
  const after = (label: string) => lines[lines.indexOf(label) + 1];
  assert.equal(after("Invoice Number"), `C-2026-03-${String(1).padStart(6, "0")}`);
  assert.equal(after("Issue Date"), "2026-06-03"); // when the bills were finalized
  assert.equal(after("Payment Due Date"), "2026-06-17"); // 10 business days later
  assert.equal(after("Billed to Tenants"), "$929.74 MXN");
  assert.equal(after("Paid by Tenants"), "$336.40 MXN"); // only Depto 1 was paid
  assert.equal(after("Pending Payment"), "$593.34 MXN");
  assert.ok(lines.includes("Paid") && lines.includes("Pending"), "each unit's payment state");
  assert.ok(!lines.includes("Tenant Payments"), "the billed total is not called payments");
});
