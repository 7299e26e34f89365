/**
 * GDMTH presets of the zone form, one per CFE division (issue 34): the January 2026 prices the
 * project's CFE reference holds (cfe-tariffs.md §3.3, "Real published GDMTH prices, January
 * 2026", scraped from CFE's GranDemandaMTH page by josballesterosm/cfe-tarifas-gdmth-PBI,
 * `data/tarifas_gdmth.csv`), a sample municipality each. The fixed charge is the zone's base
 * tariff; energy is priced by time band, distribution and capacity on demand in kW, with the
 * capacity floor (70 %) and the power factor at 90 % (§3.4). The band hours are the Región
 * Central's (core/tou.ts): the reference does not list other regions' hours, so the note says
 * to check them.
 */
import type { ZoneForm } from "./zone.ts";

/** One division's prices (MXN): fixed $/month, energy $/kWh per band, demand $/kW. */
interface GdmthPrices {
  fixed: number;
  base: number;
  intermedia: number;
  punta: number;
  distribution: number;
  capacity: number;
}

/** The reference's January 2026 table, by division (sample municipality in the name). */
export const GDMTH_DIVISIONS = {
  cfe_gdmth_baja_california: {
    fixed: 414.9,
    base: 0.6124,
    intermedia: 0.951,
    punta: 1.2837,
    distribution: 90.01,
    capacity: 357.99,
  },
  cfe_gdmth_baja_california_sur: {
    fixed: 414.9,
    base: 2.0969,
    intermedia: 2.6624,
    punta: 3.7478,
    distribution: 90.01,
    capacity: 256.62,
  },
  cfe_gdmth_bajio: {
    fixed: 427.19,
    base: 1.0558,
    intermedia: 1.8752,
    punta: 2.1364,
    distribution: 97.88,
    capacity: 392.2,
  },
  cfe_gdmth_centro_occidente: {
    fixed: 252.5,
    base: 1.0535,
    intermedia: 1.8778,
    punta: 2.1148,
    distribution: 155.41,
    capacity: 392.04,
  },
  cfe_gdmth_golfo_norte: {
    fixed: 502.03,
    base: 1.0222,
    intermedia: 1.5867,
    punta: 1.7219,
    distribution: 57.74,
    capacity: 401.78,
  },
  cfe_gdmth_jalisco: {
    fixed: 330.66,
    base: 1.0148,
    intermedia: 1.8114,
    punta: 2.0381,
    distribution: 160.25,
    capacity: 392.2,
  },
  cfe_gdmth_noroeste: {
    fixed: 197.77,
    base: 0.9706,
    intermedia: 1.5557,
    punta: 1.7244,
    distribution: 90.85,
    capacity: 392.2,
  },
  cfe_gdmth_peninsular: {
    fixed: 452.58,
    base: 1.235,
    intermedia: 2.0791,
    punta: 2.32,
    distribution: 91.87,
    capacity: 392.2,
  },
  cfe_gdmth_valle_de_mexico_centro: {
    fixed: 540.49,
    base: 1.109,
    intermedia: 1.8312,
    punta: 2.1383,
    distribution: 60.82,
    capacity: 401.78,
  },
} as const satisfies Record<string, GdmthPrices>;

/** A GDMTH preset id. */
type GdmthPresetId = keyof typeof GDMTH_DIVISIONS;

/** Where the prices come from, as cited. */
export const GDMTH_SOURCE =
  "CFE, GranDemandaMTH (2026-01), via josballesterosm/cfe-tarifas-gdmth-PBI data/tarifas_gdmth.csv";

/** The zone form of a division's GDMTH preset. */
export function gdmthForm(id: GdmthPresetId): ZoneForm {
  const p: GdmthPrices = GDMTH_DIVISIONS[id];
  return {
    currency: "MXN",
    tax_percentage: 16,
    tariff_preset: id,
    tariff_type: "industrial",
    industrial_tariff: true,
    enable_levels: false,
    base_tariff: p.fixed,
    tou_schedule: "cfe_central",
    price_base: p.base,
    price_intermedia: p.intermedia,
    price_punta: p.punta,
    distribution_enabled: true,
    distribution_price: p.distribution,
    capacity_enabled: true,
    capacity_price: p.capacity,
    capacity_floor_percentage: 70,
    power_factor_enabled: true,
  };
}
