/**
 * Where each field of a zone lives (issue 24): the zone's identity, or its price version.
 *
 * - **identity** — what names the zone and fixes its periods: `name` and `billing_type`. Kept on
 *   the zone itself; an edit applies at once, to every period (the period pickers, the bill
 *   lists and the owners' pages read the billing type from the zone, and a zone's periods are
 *   all monthly or all bimonthly).
 * - **tariff** — how a tenant's energy is priced: prices, thresholds, seasons, base tariff, tax,
 *   the industrial factors, the real-tariff additions (minimum kWh, fixed charge, DAC limit,
 *   doubled blocks), currency, tariff type and switches, the preset the prices came from.
 * - **terms** — the owner's terms: commission, fee per unit, customer tax.
 *
 * Tariff and terms fields belong to a price version: they apply from the version's first day
 * (`effective_from` of an edit), or correct the version in force. A version is written when any
 * of them changes; a change of a tariff field is also an entry of the price history, a change of
 * the terms alone is not (the history lists prices).
 *
 * How each is read: identity from the zone, the others from the version in force on the day
 * asked: today for the zone pages and the API; each day of the period for a unit bill
 * (`core/zone_versions.ts`), its last day for the station bill. An optional field absent from a
 * version reads as off (0, false, no preset): it never comes from another version.
 */
import type { Zone } from "./zone.ts";

/** Every field a zone is saved with (not its id, station count or time of change). */
type ZoneField = Exclude<keyof Zone, "id" | "station_count" | "updated_at">;

/** Where a field lives: see the module's comment. */
type FieldPart = "identity" | "tariff" | "terms";

/** How a field's value is read: the value of an absent optional field is its kind's off. */
type FieldKind = "text" | "choice" | "number" | "switch";

/** The rule of one field. */
interface FieldRule {
  part: FieldPart;
  kind: FieldKind;
  /** Absent in zones made before it existed: read as its kind's off value. */
  optional?: true;
}

const identity = (kind: FieldKind): FieldRule => ({ part: "identity", kind });
const tariff = (kind: FieldKind, optional?: true): FieldRule => ({
  part: "tariff",
  kind,
  optional,
});
const terms: FieldRule = { part: "terms", kind: "number" };
const num = tariff("number");
const flag = tariff("switch");

/** Every zone field and its rule; the type makes a missing or unknown field a compile error. */
const ZONE_FIELDS = {
  name: identity("text"),
  billing_type: identity("choice"),
  currency: tariff("choice"),
  tariff_type: tariff("choice"),
  enable_levels: flag,
  seasonal_tariff: flag,
  industrial_tariff: flag,
  price_low: num,
  price_middle: num,
  price_high: num,
  price_surplus: num,
  price_low_threshold: num,
  price_middle_threshold: num,
  price_high_threshold: num,
  price_surplus_threshold: num,
  summer_price_low: num,
  summer_price_middle: num,
  summer_price_high: num,
  summer_price_surplus: num,
  summer_price_low_threshold: num,
  summer_price_middle_threshold: num,
  summer_price_high_threshold: num,
  summer_price_surplus_threshold: num,
  winter_price_low: num,
  winter_price_middle: num,
  winter_price_high: num,
  winter_price_surplus: num,
  winter_price_low_threshold: num,
  winter_price_middle_threshold: num,
  winter_price_high_threshold: num,
  winter_price_surplus_threshold: num,
  winter_start_month: num,
  winter_start_day: num,
  winter_end_month: num,
  winter_end_day: num,
  base_tariff: num,
  tax_percentage: num,
  low_tension_enabled: flag,
  power_factor_enabled: flag,
  distribution_enabled: flag,
  distribution_price: num,
  capacity_enabled: flag,
  capacity_price: num,
  compensation_factor_enabled: flag,
  compensation_factor_percentage: num,
  customer_commission: terms,
  customer_fee: terms,
  customer_tax: terms,
  minimum_monthly_kwh: tariff("number", true),
  fixed_charge_monthly: tariff("number", true),
  dac_limit_kwh: tariff("number", true),
  bimonthly_double_blocks: tariff("switch", true),
  tariff_preset: tariff("text", true),
  tou_schedule: tariff("choice", true),
  price_base: tariff("number", true),
  price_intermedia: tariff("number", true),
  price_punta: tariff("number", true),
  capacity_floor_percentage: tariff("number", true),
  power_factor_threshold: tariff("number", true),
} as const satisfies Record<ZoneField, FieldRule>;

/** The fields, in the order of {@link ZONE_FIELDS}. */
export const ZONE_FIELD_NAMES = Object.keys(ZONE_FIELDS) as ZoneField[];

/** Fields that belong to a price version (tariff and terms). */
export const VERSION_FIELDS = ZONE_FIELD_NAMES.filter((f) => ZONE_FIELDS[f].part !== "identity");

/** Fields of the zone's identity. */
export const IDENTITY_FIELDS = ZONE_FIELD_NAMES.filter((f) => ZONE_FIELDS[f].part === "identity");

/** Some of a zone's fields: a version as stored, or any zone (its id may be a number). */
export type FieldValues = Partial<Pick<Zone, ZoneField>>;

const OFF: Record<FieldKind, unknown> = { text: "", choice: "", number: 0, switch: false };

/** A field's value in `zone`: an absent optional field is its kind's off value. */
function readField(zone: FieldValues, field: ZoneField): unknown {
  const v = zone[field];
  return v === undefined ? OFF[ZONE_FIELDS[field].kind] : v;
}

function pick(zone: FieldValues, fields: readonly ZoneField[]): FieldValues {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (zone[f] !== undefined) out[f] = zone[f];
  return out as FieldValues;
}

/** The version fields of `zone` (those it has). */
export function versionFieldsOf(zone: FieldValues): FieldValues {
  return pick(zone, VERSION_FIELDS);
}

/** The identity fields of `zone`. */
function identityOf(zone: FieldValues): FieldValues {
  return pick(zone, IDENTITY_FIELDS);
}

/**
 * A zone as it is on a day: the identity of `zone`, every version field from `version` (an
 * optional field the version lacks is left out, so it reads as off), the rest of `zone` (its id,
 * time of change) as it is.
 */
export function zoneWithVersion<T extends FieldValues>(zone: T, version: FieldValues): T {
  const out: Record<string, unknown> = { ...zone };
  for (const f of VERSION_FIELDS) delete out[f];
  return { ...out, ...versionFieldsOf(version), ...identityOf(zone) } as T;
}

/** The version fields whose values differ between `a` and `b`, read as {@link readField}. */
export function changedVersionFields(a: FieldValues, b: FieldValues): ZoneField[] {
  return VERSION_FIELDS.filter((f) => !Object.is(readField(a, f), readField(b, f)));
}

/** Whether changing `fields` is a change of prices (an entry of the price history). */
export function isPriceChange(fields: readonly ZoneField[]): boolean {
  return fields.some((f) => ZONE_FIELDS[f].part === "tariff");
}
