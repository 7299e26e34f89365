/**
 * A zone's business-tariff settings (issue 34), absent in a zone of the spec (which then bills
 * exactly as before): the time band schedule, the price of each band, the capacity demand's
 * floor and the power factor threshold. Price-version fields like the other tariff fields
 * (core/zone_fields.ts). Validation messages are locale keys under `business_tariff.validation`.
 */
import { z } from "zod";
import { BAND_SCHEDULE_IDS } from "./tou.ts";

/** The business-tariff fields of a zone. */
export interface BusinessZoneFields {
  /** The band schedule's id (core/tou.ts); absent or "": energy is priced by the levels. */
  tou_schedule?: string;
  /** $/kWh of each band. */
  price_base?: number;
  price_intermedia?: number;
  price_punta?: number;
  /** Capacity demand's floor, % of the 12-month highest demand (core/demand.ts; 0: none). */
  capacity_floor_percentage?: number;
  /** The power factor below which a surcharge applies, % (absent or 0: 90). */
  power_factor_threshold?: number;
}

const V = "business_tariff.validation.";
const price = z.number({ error: "validation.invalid" }).refine(Number.isFinite, V + "band_price")
  .min(0, V + "band_price").max(1_000, V + "band_price");

/** The fields' zod shape, spread into the zone form schema (core/zone.ts). */
export const businessZoneShape = {
  tou_schedule: z.enum(["", ...BAND_SCHEDULE_IDS] as [string, ...string[]], {
    error: V + "schedule",
  }).optional(),
  price_base: price.optional(),
  price_intermedia: price.optional(),
  price_punta: price.optional(),
  capacity_floor_percentage: z.number({ error: "validation.invalid" }).min(0, V + "floor")
    .max(100, V + "floor").optional(),
  power_factor_threshold: z.number({ error: "validation.invalid" }).refine(
    (x) => x === 0 || x === 90 || x === 95,
    V + "pf_threshold",
  ).optional(),
};

/** The business fields as the zone form edits them (text as typed). */
export interface BusinessFormValues {
  tou_schedule: string;
  price_base: string;
  price_intermedia: string;
  price_punta: string;
  capacity_floor_percentage: string;
  power_factor_threshold: string;
}

const NUMBERS = [
  "price_base",
  "price_intermedia",
  "price_punta",
  "capacity_floor_percentage",
  "power_factor_threshold",
] as const;

/** The form's values of a zone (an absent number is an empty field). */
export function businessFormValues(zone: BusinessZoneFields): BusinessFormValues {
  const out = { tou_schedule: zone.tou_schedule ?? "" } as BusinessFormValues;
  for (const k of NUMBERS) out[k] = zone[k] ? String(zone[k]) : "";
  return out;
}

/** The form's values of a posted form (`read` gives a field's text, "" when absent). */
export function businessFormPosted(read: (field: string) => string): BusinessFormValues {
  const out = { tou_schedule: read("tou_schedule") } as BusinessFormValues;
  for (const k of NUMBERS) out[k] = read(k);
  return out;
}

/**
 * The zone body's business fields from the form (`toNumber`: the form's decimal reading,
 * undefined for an empty field, NaN for junk). No schedule: every field left out, so a zone
 * without time bands is saved exactly as before.
 */
export function businessBody(
  v: BusinessFormValues,
  toNumber: (raw: string) => number | undefined,
): Partial<Record<keyof BusinessZoneFields, unknown>> {
  if (!v.tou_schedule) return {};
  const out: Partial<Record<keyof BusinessZoneFields, unknown>> = { tou_schedule: v.tou_schedule };
  for (const k of NUMBERS) out[k] = toNumber(v[k]);
  return out;
}
