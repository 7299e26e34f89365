/**
 * CFE (Mexico) tariff presets for the zone form (issue 17): residential 1 and 1A–1F, DAC and
 * PDBT, with the values the project's CFE reference holds, the date of its prices and their
 * source. A price the reference could not confirm is null: the form leaves it empty and asks
 * for it, nothing is invented. Every preset follows the spec's rounding (each block rounded to
 * cents, then the tax), so tariff 1 at 200 kWh gives 433.69 where the reference, rounding only
 * the subtotal, gives 433.68.
 */
import type { ZoneForm } from "./zone.ts";
import { GDMTH_DIVISIONS, GDMTH_SOURCE, gdmthForm } from "./cfe_presets_gdmth.ts";

/** The GDMTH presets per division (core/cfe_presets_gdmth.ts), as a tuple of literals. */
const GDMTH_PRESETS_IDS = [
  "cfe_gdmth_baja_california",
  "cfe_gdmth_baja_california_sur",
  "cfe_gdmth_bajio",
  "cfe_gdmth_centro_occidente",
  "cfe_gdmth_golfo_norte",
  "cfe_gdmth_jalisco",
  "cfe_gdmth_noroeste",
  "cfe_gdmth_peninsular",
  "cfe_gdmth_valle_de_mexico_centro",
] as const satisfies readonly (keyof typeof GDMTH_DIVISIONS)[];

/** Preset ids, in the order the form offers them. */
export const CFE_PRESETS = [
  "cfe_1",
  "cfe_1a",
  "cfe_1b",
  "cfe_1c",
  "cfe_1d",
  "cfe_1e",
  "cfe_1f",
  "cfe_dac",
  "cfe_pdbt",
  ...GDMTH_PRESETS_IDS,
] as const;
type PresetId = typeof CFE_PRESETS[number];

/** DAC energy regions of the reference (February 2023). */
export const DAC_REGIONS = ["central", "norte", "sur", "noroeste", "bc", "bcs"] as const;
export type DacRegion = typeof DAC_REGIONS[number];

/** The rounding every preset follows: the spec's, per block. */
const PRESET_ROUNDING = "per_tier";

/** A level of a preset: price per kWh (null: not confirmed) and cumulative upper limit. */
interface PresetLevel {
  price: number | null;
  threshold: number;
}

/**
 * What the reference confirms of a preset (the note words it in the reader's language):
 * every price, the summer blocks and prices only, some prices, the blocks only, the fixed
 * charge only, or only the high-consumption limit.
 */
export type PresetCoverage =
  | "confirmed"
  | "summer_only"
  | "partial"
  | "blocks_only"
  | "fixed_only"
  | "dac_only"
  | "bands_central";

/** A filled zone form: the values, the fields left for the operator, and the note. */
export interface PresetFill {
  form: ZoneForm;
  /** Form fields whose price the reference could not confirm (`summer_levels.1.price`). */
  missing: string[];
  /** Date of the prices (`YYYY-MM`, null when none is confirmed). */
  prices_date: string | null;
  /** The sources, as cited (sites or documents and their dates; no prose to translate). */
  source: string;
  coverage: PresetCoverage;
  rounding: typeof PRESET_ROUNDING;
}

/** Options of a preset: the first summer month of the locality (2–5), the DAC region. */
interface PresetOptions {
  summer_start_month?: number;
  region?: DacRegion;
}

const IVA = 16;
/** CFE residential minimum monthly consumption (1A text, 2014; press 2025/2026). */
const MINIMUM_KWH = 25;

interface Residential {
  dac: number;
  summer: PresetLevel[] | null;
  other: PresetLevel[];
  date: string | null;
  source: string;
  coverage: PresetCoverage;
}

const L = (price: number | null, threshold: number): PresetLevel => ({ price, threshold });
const NON_SUMMER_75_200 = [L(null, 75), L(null, 200), L(null, 0)];
/** Three blocks whose limits and prices the reference did not find. */
const UNKNOWN_3 = [L(null, 0), L(null, 0), L(null, 0)];

/** Residential blocks (kWh per month) and prices of the reference, section 3.1 and 3.2. */
const RESIDENTIAL: Record<
  Exclude<PresetId, "cfe_dac" | "cfe_pdbt" | typeof GDMTH_PRESETS_IDS[number]>,
  Residential
> = {
  cfe_1: {
    dac: 250,
    summer: null,
    other: [L(1.015, 75), L(1.239, 140), L(3.62, 0)],
    date: "2024-01",
    source: "dedinero.com.mx (2024-01-04); diariodelyaqui.mx (2023-12)",
    coverage: "confirmed",
  },
  cfe_1a: {
    dac: 300,
    summer: [L(0.717, 100), L(0.844, 150), L(2.88, 0)],
    other: UNKNOWN_3,
    date: "2014",
    source: "CFE, tarifa 1A (2014, clubensayos.com)",
    coverage: "summer_only",
  },
  cfe_1b: {
    dac: 400,
    summer: UNKNOWN_3,
    other: UNKNOWN_3,
    date: null,
    source: "solaresenergia.com; elheraldodechiapas.com.mx; diariodelyaqui.mx",
    coverage: "dac_only",
  },
  cfe_1c: {
    dac: 850,
    summer: [L(null, 150), L(null, 300), L(null, 450), L(null, 0)],
    other: [L(null, 75), L(null, 175), L(null, 0)],
    date: null,
    source: "ResidentialRate (Python)",
    coverage: "blocks_only",
  },
  cfe_1d: {
    dac: 1000,
    summer: [L(null, 175), L(null, 400), L(null, 600), L(null, 0)],
    other: NON_SUMMER_75_200,
    date: null,
    source: "ResidentialRate (Python)",
    coverage: "blocks_only",
  },
  cfe_1e: {
    dac: 2000,
    summer: [L(null, 300), L(null, 750), L(null, 900), L(null, 0)],
    other: NON_SUMMER_75_200,
    date: null,
    source: "ResidentialRate (Python)",
    coverage: "blocks_only",
  },
  cfe_1f: {
    dac: 2500,
    summer: [L(0.803, 300), L(0.996, 1200), L(null, 2500), L(null, 0)],
    other: NON_SUMMER_75_200,
    date: "2024",
    source: "imparcialoaxaca.mx (2024); luznoticias.mx (2025-02-13)",
    coverage: "partial",
  },
};

/** DAC energy price per region, summer / non-summer where they differ (February 2023). */
const DAC_PRICES: Record<DacRegion, { summer: number; other: number }> = {
  central: { summer: 6.39, other: 6.39 },
  norte: { summer: 5.834, other: 5.834 },
  sur: { summer: 5.925, other: 5.925 },
  noroeste: { summer: 5.989, other: 5.989 },
  bc: { summer: 6.213, other: 5.337 },
  bcs: { summer: 6.768, other: 5.337 },
};

/** The winter window (the zone's non-summer) for six summer months from `start` (2–5). */
function winterWindow(start: number) {
  const s = Math.min(5, Math.max(2, Math.trunc(start)));
  const end = s + 5; // the last summer month
  return {
    winter_start_month: end + 1,
    winter_start_day: 1,
    winter_end_month: s - 1,
    winter_end_day: new Date(Date.UTC(2001, s - 1, 0)).getUTCDate(),
  };
}

function levels(list: PresetLevel[], field: string, missing: string[]) {
  return list.map((l, i) => {
    if (l.price === null) missing.push(`${field}.${i}.price`);
    return { price: l.price ?? Number.NaN, threshold: l.threshold };
  });
}

/**
 * The zone form a preset fills. Unconfirmed prices are NaN in `form` (an empty field) and
 * listed in `missing`; everything stays editable. Throws RangeError for an unknown preset.
 */
export function presetFill(id: string, options: PresetOptions = {}): PresetFill {
  const missing: string[] = [];
  const base = { currency: "MXN" as const, tax_percentage: IVA, tariff_preset: id };
  if (id in GDMTH_DIVISIONS) {
    // Every price confirmed; the band hours are the Región Central's (the note says so).
    return {
      form: gdmthForm(id as keyof typeof GDMTH_DIVISIONS),
      missing,
      prices_date: "2026-01",
      source: GDMTH_SOURCE,
      coverage: "bands_central",
      rounding: PRESET_ROUNDING,
    };
  }
  if (id === "cfe_dac") {
    const p = DAC_PRICES[options.region ?? "central"];
    const seasonal = p.summer !== p.other;
    return {
      form: {
        ...base,
        tariff_type: "residential",
        seasonal_tariff: seasonal,
        price_low: p.other,
        summer_price_low: p.summer,
        winter_price_low: p.other,
        fixed_charge_monthly: 131.3,
        ...(seasonal ? winterWindow(options.summer_start_month ?? 5) : {}),
      },
      missing,
      prices_date: "2023-02",
      source: "reportacero.com; antenasanluis.mx (2023-02)",
      coverage: "confirmed",
      rounding: PRESET_ROUNDING,
    };
  }
  if (id === "cfe_pdbt") {
    missing.push("price_low");
    return {
      form: {
        ...base,
        tariff_type: "commercial",
        billing_type: "bimonthly",
        price_low: Number.NaN,
        fixed_charge_monthly: 62.82,
      },
      missing,
      prices_date: "2023-09",
      source: "unotv.com (2023-09, Valle de México Norte)",
      coverage: "fixed_only",
      rounding: PRESET_ROUNDING,
    };
  }
  const r = RESIDENTIAL[id as keyof typeof RESIDENTIAL];
  if (!r) throw new RangeError(`unknown tariff preset ${JSON.stringify(id)}`);
  const common = {
    ...base,
    tariff_type: "residential" as const,
    enable_levels: true,
    minimum_monthly_kwh: MINIMUM_KWH,
    dac_limit_kwh: r.dac,
  };
  const form: ZoneForm = r.summer
    ? {
      ...common,
      seasonal_tariff: true,
      summer_levels: levels(r.summer, "summer_levels", missing),
      winter_levels: levels(r.other, "winter_levels", missing),
      ...winterWindow(options.summer_start_month ?? 4),
    }
    : { ...common, levels: levels(r.other, "levels", missing) };
  return {
    form,
    missing,
    prices_date: r.date,
    source: r.source,
    coverage: r.coverage,
    rounding: PRESET_ROUNDING,
  };
}
