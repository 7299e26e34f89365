import assert from "node:assert/strict";
import { renderUnitPdf } from "./unit_pdf.ts";
import { loadI18n } from "../../platform/i18n.ts";
import { defaultZone, type Zone } from "../../../core/zone.ts";
import { computeUnitBill } from "../../../core/tariff.ts";
import type { StoredUnitBill } from "../../../db/bills.ts";
import type { StoredDevice } from "../../../core/devices.ts";
import { pdfText } from "../../../tests/_pdf_text.ts";
import { storedUnitBill } from "../../../tests/_bills.ts";

/** A seasonal industrial zone with 5 % compensation: winter 2.00/kWh, summer 1.00/kWh. */
const zone: Zone = {
  ...defaultZone("Industrial Norte"),
  seasonal_tariff: true,
  industrial_tariff: true,
  compensation_factor_enabled: true,
  compensation_factor_percentage: 5,
  winter_price_low: 2,
  summer_price_low: 1,
  base_tariff: 50,
  tax_percentage: 16,
};

const station = {
  id: 3,
  name: "Planta Ñandú",
  serial_number: "PL-3",
  location: JSON.stringify({ city: "Saltillo" }),
  config: { station: { units: [{ id: "unit_1", name: "Nave 1", ssr_id: "ssr_1" }] } },
} as unknown as StoredDevice;

function billOf(energy: number, period: string, extra: Partial<StoredUnitBill>): StoredUnitBill {
  const c = computeUnitBill(zone, energy, { period });
  return storedUnitBill({
    billing_month: period,
    energy_consumption: c.energy_consumption,
    energy_cost: c.energy_cost,
    base_tariff: c.base_tariff,
    compensation_cost: c.compensation_cost,
    tax_cost: c.tax_cost,
    total_cost: c.total_cost,
    payment_status: "paid",
    payment_due_date: "2026-02-13",
    payment_date: "2026-02-02T10:00:00.000Z",
    is_finalized: true,
    is_estimation: true,
    estimation_method: "method_3_zone_average",
    calculation_details: {
      pricing_mode: c.pricing_mode,
      season: c.season,
      tiers: c.calculation_details,
    },
    zone_snapshot: { ...zone, id: 1 },
    tenant_id: 9,
    sensor_serial: "S",
    station_id: 3,
    ...extra,
  });
}

/** The text of the unit PDF of `bill` for Nave 1 of the station, in `lang`. */
async function unitPdfText(
  lang: "es" | "en",
  portal: string,
  tenant: string | null,
  bill: StoredUnitBill,
): Promise<string> {
  const i18n = await loadI18n();
  const bytes = await renderUnitPdf({
    t: i18n.t(lang),
    lang,
    portal,
    station,
    unit: { id: "unit_1", name: "Nave 1" },
    tenant,
    bill,
    zone,
  });
  return (await pdfText(bytes)).lines.join("\n");
}

/** Asserts that `text` holds each of the `expected` lines. */
function assertShows(text: string, expected: string[]): void {
  for (const line of expected) assert.ok(text.includes(line), `missing "${line}" in:\n${text}`);
}

Deno.test("the unit PDF states the season, compensation, estimation and zone prices", async () => {
  const bill = billOf(250, "2026-01", {});
  // Winter: 250 × 2 = 500.00; compensation 5 % = 25.00; tax 16 % of 575.00 = 92.00.
  assert.equal(bill.total_cost, 66700);
  assertShows(await unitPdfText("en", "Energy Portal", "Zoë Álvarez", bill), [
    "Planta Ñandú (PL-3)",
    "Zoë Álvarez",
    "Saltillo",
    "$500.00 MXN",
    "$25.00 MXN",
    "$575.00 MXN",
    "$92.00 MXN",
    "$667.00 MXN",
    "Paid (2026-02-02)",
    "The consumption of this bill was estimated using Zone Average.",
    "Winter rates were applied to this period.",
    "Zone Prices: Industrial Norte",
    "Seasonal",
    "Compensation Factor",
  ]);
});

Deno.test("the unit PDF of a recalculated summer bill gives the method and the reason", async () => {
  const bill = billOf(100, "2026-07", {
    is_estimation: false,
    estimation_method: null,
    recalculation_method: "manual_input",
    override_reason: "Medidor reemplazado — lectura manual",
  });
  assertShows(await unitPdfText("es", "Portal de Energía", null, bill), [
    "Reporte de factura de unidad",
    "Julio 2026 (2026-07)",
    "No asignado",
    "Esta factura se recalculó usando Captura manual.",
    "Motivo: Medidor reemplazado — lectura manual",
    "Se aplicaron las tarifas de verano a este periodo.",
  ]);
});
