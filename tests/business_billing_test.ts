/**
 * A unit of a GDMTH zone billed from its own 15-minute readings in the real SQLite store:
 * energy per time band, demand peaks and when they happened, the power factor surcharge; a
 * unit with a day of missing data says its bands were estimated.
 */
import assert from "node:assert/strict";
import { call, testsWith } from "./_helpers.ts";
import { billingWorld, unitBillOf } from "./_billing_world.ts";
import { at, GOLFO_NORTE_2026 } from "./_business_zone.ts";
import { recalculateBill, runBilling } from "../services/billing/mod.ts";
import { pdfText } from "./_pdf_text.ts";
import type { Sample } from "../db/telemetry/mod.ts";

const Q = 900_000;

/** GDMTH Golfo Norte, January 2026 prices (the tariff reference), PF 90 % threshold. */
const GDMTH = { ...GOLFO_NORTE_2026, enable_levels: false, power_factor_enabled: true };

/**
 * January 2026 of a meter: one reading in the middle of every quarter hour, 40 kW but 66.2 kW
 * once in punta (Wednesday the 14th, 19:00) and 70 kW on Sunday the 4th at noon, apparent
 * power at a power factor of 85 %; the counter grows by each quarter's kWh. `skip`: a local
 * day without any reading (the counter still counts across it).
 */
function january(serial: string, skip?: string): Sample[] {
  const from = at("2026-01-01T00:00");
  const out: Sample[] = [{ serial, ts: from - Q / 2, values: { total_energy_kwh: 1000 } }];
  let counter = 1000;
  for (let ts = from; ts < at("2026-02-01T00:00"); ts += Q) {
    const kw = ts === at("2026-01-14T19:00") ? 66.2 : ts === at("2026-01-04T12:00") ? 70 : 40;
    counter = Math.round((counter + kw / 4) * 1000) / 1000;
    if (skip && ts >= at(`${skip}T00:00`) && ts < at(`${skip}T00:00`) + 86_400_000) continue;
    out.push({
      serial,
      ts: ts + Q / 2,
      values: {
        total_energy_kwh: counter,
        total_power: kw * 1000,
        total_apparent_power: kw * 1000 / 0.85,
      },
    });
  }
  return out;
}

const test = testsWith(
  () => billingWorld({ now: Date.parse("2026-02-13T18:00:00Z"), zone: GDMTH }),
  (w) => w.t.close(),
);

test("a GDMTH unit is billed per band, on its 15-minute demand peaks, with its power factor", async (w) => {
  w.t.deps.telemetry.write([...january("SIM-A"), ...january("SIM-B", "2026-01-20")]);
  await w.t.deps.telemetry.flush();
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.deepEqual(res.failures, []);
  const bill = await unitBillOf(w, "2026-01", "unit_1");
  const b = bill.calculation_details.business!;
  // 21 weekdays, 5 Saturdays, 4 Sundays and New Year's Day: base 256 h, intermedia 394 h,
  // punta 94 h at 40 kW, plus the quarter hours of the two peaks.
  assert.deepEqual(b.bands, {
    base: { kwh: 10_247.5, price: 1.0222, cost: 1_047_499 }, // 10,474.9945
    intermedia: { kwh: 15_760, price: 1.5867, cost: 2_500_639 },
    punta: { kwh: 3_766.55, price: 1.7219, cost: 648_562 },
  });
  assert.equal(bill.energy_consumption, 29_774.05);
  assert.equal(bill.energy_cost, 1_047_499 + 2_500_639 + 648_562);
  assert.deepEqual(b.demand.max, { kw: 70, at: at("2026-01-04T12:00"), local: "2026-01-04 12:00" });
  assert.deepEqual(b.demand.punta, {
    kw: 66.2,
    at: at("2026-01-14T19:00"),
    local: "2026-01-14 19:00",
  });
  assert.deepEqual(b.distribution, { kw: 70, price: 57.74, cost: 404_180 });
  assert.deepEqual(b.capacity, { kw: 66.2, price: 401.78, cost: 2_659_784 });
  const before = 50_203 + 1_047_499 + 2_500_639 + 648_562 + 404_180 + 2_659_784;
  assert.deepEqual(b.power_factor, {
    factor: 85,
    kind: "surcharge",
    percent: 3.5,
    amount: Math.round(before * 0.035),
  });
  assert.equal(bill.compensation_cost, 404_180 + 2_659_784 + Math.round(before * 0.035));
  assert.equal(
    bill.total_cost,
    bill.base_tariff + bill.energy_cost + bill.compensation_cost + bill.tax_cost,
  );
  assert.equal(b.estimated, undefined);
  assert.equal(bill.is_finalized, true);

  // A day without readings: the counter's kWh is still billed, split in the measured shares.
  const gap = await unitBillOf(w, "2026-01", "unit_2");
  const g = gap.calculation_details.business!;
  assert.equal(gap.energy_consumption, 29_774.05);
  assert.equal(
    Math.round((g.bands.base.kwh + g.bands.intermedia.kwh + g.bands.punta.kwh) * 1000) / 1000,
    29_774.05,
  );
  assert.deepEqual(g.estimated, ["bands"]);
  assert.deepEqual(g.demand.punta, {
    kw: 66.2,
    at: at("2026-01-14T19:00"),
    local: "2026-01-14 19:00",
  });
});

test("the tenant's bill card shows kWh per band, the demand and when, and the power factor", async (w) => {
  w.t.deps.telemetry.write(january("SIM-A"));
  await w.t.deps.telemetry.flush();
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  // Tenant A reads Spanish.
  const res = await call(w.t, "GET", "/user/billing?period=2026-01", {
    cookie: `token=${w.tenantTokens[0]}`,
  });
  assert.equal(res.status, 200);
  const page = (await res.text()).replaceAll("&#x27;", "'");
  // Grouped as Spanish writes numbers, each with its own decimals.
  assert.match(page, /Punta · 3,766\.55 kWh × 1\.7219 = \$6,485\.62 MXN/);
  assert.match(page, /Base · 10,247\.5 kWh × 1\.0222 = \$10,474\.99 MXN/);
  assert.match(page, /Demanda en punta: 66\.2 kW el 2026-01-14 19:00/);
  assert.match(page, /Demanda máxima: 70 kW el 2026-01-04 12:00/);
  assert.match(page, /Capacidad \(66\.2 kW × 401\.78\) = \$26,597\.84 MXN/);
  assert.match(page, /Factor de potencia 85 %: recargo 3\.5 %/);
});

test("the unit PDF of a business bill names its bands, its demand charges and the zone's band and kW prices", async (w) => {
  w.t.deps.telemetry.write(january("SIM-A"));
  await w.t.deps.telemetry.flush();
  await runBilling(w.t.deps, w.zoneId, "2026-01");
  const res = await call(w.t, "POST", "/api/reports/generate", {
    token: w.admin,
    json: {
      reportType: "monthly",
      stationId: w.stationId,
      unitId: "unit_1",
      month: "2026-01",
      language: "es",
    },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).lines.join("\n");
  assert.doesNotMatch(text, /price_table|business_tariff\./);
  assert.match(text, /Intermedia\s*15,760\.000\s*1\.5867\s*\$25,006\.39 MXN/);
  assert.match(text, /Demanda, baja tensión y factor de potencia/);
  assert.match(text, /Precio de capacidad\s*\$401\.78 MXN\/kW/);
  // Its rows are time bands, its pricing mode the business tariff, its kWh grouped.
  assert.match(text, /Periodo\s*kWh\s*Precio\s*Costo/);
  assert.match(text, /Modo de precios\s*Tarifa comercial \(horaria, demanda\)/);
  assert.match(text, /Base · 10,247\.5 kWh × 1\.0222 = \$10,474\.99 MXN/);
  // No price levels for a zone priced by bands.
  assert.doesNotMatch(text, /Nivel bajo|Básico/);
});

test("a recalculated business bill prices the new kWh by band and demand; without 15-minute data it says what was estimated and how", async (w) => {
  // Unit 2's meter sent only its counter in January: no 15-minute power at all.
  const counter: Sample[] = [0, 10, 20, 31].map((d) => ({
    serial: "SIM-B",
    ts: at("2026-01-01T00:00") + d * 86_400_000 - (d === 31 ? 60_000 : -60_000),
    values: { total_energy_kwh: 500 + d * 100 },
  }));
  w.t.deps.telemetry.write([...january("SIM-A"), ...counter]);
  await w.t.deps.telemetry.flush();
  assert.deepEqual((await runBilling(w.t.deps, w.zoneId, "2026-01")).failures, []);
  const actor = { id: w.adminUser.id, email: w.adminUser.email };
  const one = await unitBillOf(w, "2026-01", "unit_1");
  const r = await recalculateBill(w.t.deps, one.id, "monthly", {
    reason: "Lectura corregida",
    method: "manual_input",
    kwh: 30_000,
  }, actor);
  const b = r.calculation_details.business!;
  assert.equal(r.recalculation_method, "manual_input");
  assert.equal(r.energy_consumption, 30_000);
  // 30,000 kWh in the measured shares of 29,774.05 (base 10,247.5, intermedia 15,760).
  const base = Math.round(30_000 * 10_247.5 / 29_774.05 * 1000) / 1000;
  const intermedia = Math.round(30_000 * 15_760 / 29_774.05 * 1000) / 1000;
  assert.equal(b.bands.base.kwh, base);
  assert.equal(b.bands.intermedia.kwh, intermedia);
  assert.equal(b.bands.punta.kwh, Math.round((30_000 - base - intermedia) * 1000) / 1000);
  assert.equal(r.energy_cost, b.bands.base.cost + b.bands.intermedia.cost + b.bands.punta.cost);
  // The peaks are the meter's, as billed: capacity 66.2 kW × 401.78.
  assert.deepEqual(b.capacity, { kw: 66.2, price: 401.78, cost: 2_659_784 });
  assert.equal(b.power_factor?.factor, 85);
  assert.equal(b.estimated, undefined);

  const two = await unitBillOf(w, "2026-01", "unit_2");
  const e = await recalculateBill(w.t.deps, two.id, "monthly", {
    reason: "Sin detalle",
    method: "manual_input",
    kwh: 7_440,
  }, actor);
  const g = e.calculation_details.business!;
  assert.deepEqual(g.estimated, ["bands", "demand"]);
  // No peak known: the demand is January's average power, 7,440 kWh / 744 h = 10 kW.
  assert.deepEqual(g.demand.max, { kw: 10, at: null, local: null });
  assert.deepEqual(g.capacity, { kw: 10, price: 401.78, cost: 401_780 });
  const res = await call(w.t, "GET", "/user/billing?period=2026-01", {
    cookie: `token=${w.tenantTokens[1]}`,
  });
  const page = (await res.text()).replaceAll("&#x27;", "'");
  assert.match(
    page,
    /Estimated: energy by band, demand \(no 15-minute data: the period's kWh are split by the hours of each time band and the demand is the average power\)/,
  );
});

test("the tenant's pricing page shows the band prices and hours, the demand prices and rule, and the power factor rule", async (w) => {
  const res = await call(w.t, "GET", "/user/pricing", { cookie: `token=${w.tenantTokens[1]}` });
  assert.equal(res.status, 200);
  const html = (await res.text()).replaceAll("&#x27;", "'");
  const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  assert.match(text, /Intermedia \$1\.5867 MXN\/kWh/);
  assert.match(text, /Punta \$1\.7219 MXN\/kWh/);
  // Winter weekdays: punta 18:00 to 22:00; summer Saturdays have none.
  const winter = html.slice(html.indexOf('data-testid="business-hours-winter"'));
  assert.match(winter, /18:00–22:00 Punta/);
  const summer = html.slice(
    html.indexOf('data-testid="business-hours-summer"'),
    html.indexOf('data-testid="business-hours-winter"'),
  ).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  assert.match(summer, /Saturday 00:00–07:00 Base 07:00–24:00 Intermedia/);
  assert.match(text, /Capacity \$401\.78 MXN\/kW/);
  assert.match(text, /greater of the demand in punta and 70 % of the highest demand/);
  assert.match(text, /Below a 90 % power factor a surcharge/);
  assert.doesNotMatch(html, /data-testid="pricing-basic"/);
});
