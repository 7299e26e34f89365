/**
 * The building's CFE bill against its units' bills (issue 34, item 5), figures by hand: the
 * energy no unit was billed for in kWh and in %, the money recovered and net recovered in %,
 * the owner's balance, the trend by period; and the entered form's checks.
 */
import assert from "node:assert/strict";
import { cfeBillInputSchema, looksLikePdf, reconcile, reconciliationTrend } from "./cfe_bill.ts";

// CFE billed the building 12,500 kWh for $38,400.00. Three units were billed 4,200.5 kWh
// ($13,020.40), 3,800 kWh ($11,780.00) and 2,999.5 kWh ($9,298.45): 11,000 kWh, $34,098.85.
// The station bill (commission, fee, tax) is $2,046.00.
const units = [
  { kwh: 4200.5, total: 1_302_040 },
  { kwh: 3800, total: 1_178_000 },
  { kwh: 2999.5, total: 929_845 },
];
const cfe = { period: "2026-01", kwh: 12_500, kw: 662, amount: 3_840_000 };

Deno.test("reconcile: kWh not billed to any unit and its %, money recovered and net recovered, balance", () => {
  const r = reconcile(cfe, units, [204_600]);
  assert.equal(r.billed_kwh, 11_000);
  // 12,500 − 11,000 = 1,500 kWh; 1,500 / 12,500 = 12 %.
  assert.equal(r.unbilled_kwh, 1_500);
  assert.equal(r.unbilled_pct, 12);
  assert.equal(r.tenants_amount, 3_409_885);
  assert.equal(r.station_amount, 204_600);
  // 34,098.85 / 38,400 = 0.887996… → 88.80 %.
  assert.equal(r.recovered_pct, 88.8);
  // (34,098.85 − 2,046) / 38,400 = 32,052.85 / 38,400 = 0.834709… → 83.47 %.
  assert.equal(r.net_recovered_pct, 83.47);
  // 34,098.85 − 2,046 − 38,400 = −6,347.15: the owner pays that.
  assert.equal(r.balance, -634_715);
  assert.equal(r.cfe_kw, 662);
});

Deno.test("reconcile: units billed more than CFE measured is a negative gap; no kWh from CFE has no %", () => {
  const over = reconcile({ ...cfe, kwh: 10_000 }, units, []);
  assert.equal(over.unbilled_kwh, -1_000);
  assert.equal(over.unbilled_pct, -10);
  // 34,098.85 / 38,400 with no station bill: net equals gross.
  assert.equal(over.net_recovered_pct, over.recovered_pct);
  assert.equal(reconcile({ ...cfe, kwh: 0 }, [], []).unbilled_pct, null);
  // Three tenths: no float dust in the kWh (0.1 + 0.2).
  assert.equal(
    reconcile({ ...cfe, kwh: 1 }, [{ kwh: 0.1, total: 1 }, { kwh: 0.2, total: 1 }], [])
      .unbilled_kwh,
    0.7,
  );
});

Deno.test("reconciliationTrend: oldest period first, the last ones kept", () => {
  const rows = ["2026-03", "2025-12", "2026-01", "2026-02"].map((period) =>
    reconcile({ ...cfe, period }, units, [])
  );
  assert.deepEqual(reconciliationTrend(rows).map((r) => r.period), [
    "2025-12",
    "2026-01",
    "2026-02",
    "2026-03",
  ]);
  assert.deepEqual(reconciliationTrend(rows, 2).map((r) => r.period), ["2026-02", "2026-03"]);
});

Deno.test("cfeBillInputSchema: amounts in pesos with 2 decimals, kWh optional, bad fields named", () => {
  const ok = cfeBillInputSchema.parse({
    period: "2026-01",
    kwh: "12500,5",
    kw: "",
    amount: "38400.00",
  });
  assert.deepEqual(ok, { period: "2026-01", kwh: 12_500.5, kw: null, amount: 38_400 });
  assert.equal(cfeBillInputSchema.parse({ period: "2026-01-02", amount: "1" }).kwh, null);
  const issues = (x: Record<string, string>) =>
    Object.fromEntries(
      (cfeBillInputSchema.safeParse(x).error?.issues ?? []).map((i) => [i.path[0], i.message]),
    );
  assert.deepEqual(issues({ period: "2026-13", kwh: "-1", kw: "x", amount: "12.345" }), {
    period: "cfe_bill.errors.period",
    kwh: "cfe_bill.errors.number",
    kw: "cfe_bill.errors.number",
    amount: "cfe_bill.errors.money",
  });
  assert.deepEqual(issues({ period: "2026-01", amount: "0" }), {
    amount: "cfe_bill.errors.amount_positive",
  });
  assert.deepEqual(issues({ period: "2026-01", amount: "" }), { amount: "validation.required" });
  assert.deepEqual(issues({ period: "2026-01", amount: "1e12" }), {
    amount: "cfe_bill.errors.money",
  });
});

Deno.test("looksLikePdf: a PDF starts with %PDF-", () => {
  assert.ok(looksLikePdf(new TextEncoder().encode("%PDF-1.7\n")));
  assert.ok(!looksLikePdf(new TextEncoder().encode("<html>")));
  assert.ok(!looksLikePdf(new Uint8Array()));
});
