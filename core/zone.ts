/**
 * The pricing Zone (spec 001 section 3, fields verbatim), its body schema with the zone form
 * messages of section 5 as locale keys, and the zone body rules of section 7 (levels mapped by
 * position, defaults, industrial fields zeroed when the tariff is not industrial).
 * Money stays as the decimal numbers the operator entered; `tariff.ts` converts it to cents.
 */
import { z } from "zod";
import { MAX_AMOUNT } from "./schemas.ts";
import { isCleanName, NAME_CONTROL_KEY } from "./name_text.ts";
import { type BusinessZoneFields, businessZoneShape } from "./zone_business.ts";

/** Currencies a zone may bill in. */
export const CURRENCIES = ["MXN", "USD", "EUR"] as const;
/** Tariff types. */
export const TARIFF_TYPES = ["residential", "commercial", "industrial"] as const;
/** Billing types of a zone. */
export const BILLING_TYPES = ["monthly", "bimonthly"] as const;
/** Maximum number of pricing levels. */
export const MAX_LEVELS = 4;
/** Level names by position: first low, second middle, third high, fourth surplus. */
export const LEVEL_NAMES = ["low", "middle", "high", "surplus"] as const;
/** The first and last month a price version may start (`YYYY-MM`, issue 25). */
export const VERSION_MONTHS = { first: "2000-01", last: "2100-12" } as const;
/** Fallback of price_low_threshold when no first level threshold is given. */
const DEFAULT_LOW_THRESHOLD = 150;

/** One of the four level names. */
export type LevelName = typeof LEVEL_NAMES[number];

/** A pricing zone, field names as in spec 001 section 3. */
export interface Zone extends BusinessZoneFields {
  id?: number;
  name: string;
  currency: typeof CURRENCIES[number];
  tariff_type: typeof TARIFF_TYPES[number];
  billing_type: typeof BILLING_TYPES[number];
  enable_levels: boolean;
  seasonal_tariff: boolean;
  industrial_tariff: boolean;
  price_low: number;
  price_middle: number;
  price_high: number;
  price_surplus: number;
  price_low_threshold: number;
  price_middle_threshold: number;
  price_high_threshold: number;
  price_surplus_threshold: number;
  summer_price_low: number;
  summer_price_middle: number;
  summer_price_high: number;
  summer_price_surplus: number;
  summer_price_low_threshold: number;
  summer_price_middle_threshold: number;
  summer_price_high_threshold: number;
  summer_price_surplus_threshold: number;
  winter_price_low: number;
  winter_price_middle: number;
  winter_price_high: number;
  winter_price_surplus: number;
  winter_price_low_threshold: number;
  winter_price_middle_threshold: number;
  winter_price_high_threshold: number;
  winter_price_surplus_threshold: number;
  winter_start_month: number;
  winter_start_day: number;
  winter_end_month: number;
  winter_end_day: number;
  base_tariff: number;
  tax_percentage: number;
  low_tension_enabled: boolean;
  power_factor_enabled: boolean;
  distribution_enabled: boolean;
  distribution_price: number;
  capacity_enabled: boolean;
  capacity_price: number;
  compensation_factor_enabled: boolean;
  compensation_factor_percentage: number;
  customer_commission: number;
  customer_fee: number;
  customer_tax: number;
  /** Additions of real tariffs (issue 17), absent or 0/false in a zone of the spec. */
  minimum_monthly_kwh?: number;
  fixed_charge_monthly?: number;
  /** High-consumption (DAC) limit in kWh per month of the 12-month moving average. */
  dac_limit_kwh?: number;
  bimonthly_double_blocks?: boolean;
  /** The preset the zone was filled from, and its rounding and source note. */
  tariff_preset?: string;
  updated_at?: string;
  station_count?: number;
}

/** One level as the zone form edits it. */
interface ZoneLevel {
  price: number;
  threshold: number;
}

/**
 * The levels that fields hold, in the order of {@link LEVEL_NAMES} (`read("price_low")`,
 * `read("price_low_threshold")`, …): the first always, later ones up to the last that has a
 * field other than 0. The inverse of {@link levelsToFields}.
 */
export function levelsFromFields(read: (field: string) => number): ZoneLevel[] {
  const levels = LEVEL_NAMES.map((name) => ({
    price: read(`price_${name}`),
    threshold: read(`price_${name}_threshold`),
  }));
  while (levels.length > 1) {
    const last = levels[levels.length - 1];
    if (last.price !== 0 || last.threshold !== 0) break;
    levels.pop();
  }
  return levels;
}

/** Zone fields that belong to the industrial tariff. */
const INDUSTRIAL_FIELDS = {
  low_tension_enabled: false,
  power_factor_enabled: false,
  distribution_enabled: false,
  distribution_price: 0,
  capacity_enabled: false,
  capacity_price: 0,
  compensation_factor_enabled: false,
  compensation_factor_percentage: 0,
} as const;

/** A zone with every default of spec 001 section 9 (MXN, residential, monthly, winter 11-01..03-31, numbers 0). */
export function defaultZone(name = ""): Zone {
  return {
    name,
    currency: "MXN",
    tariff_type: "residential",
    billing_type: "monthly",
    enable_levels: false,
    seasonal_tariff: false,
    industrial_tariff: false,
    price_low: 0,
    price_middle: 0,
    price_high: 0,
    price_surplus: 0,
    price_low_threshold: DEFAULT_LOW_THRESHOLD,
    price_middle_threshold: 0,
    price_high_threshold: 0,
    price_surplus_threshold: 0,
    summer_price_low: 0,
    summer_price_middle: 0,
    summer_price_high: 0,
    summer_price_surplus: 0,
    summer_price_low_threshold: DEFAULT_LOW_THRESHOLD,
    summer_price_middle_threshold: 0,
    summer_price_high_threshold: 0,
    summer_price_surplus_threshold: 0,
    winter_price_low: 0,
    winter_price_middle: 0,
    winter_price_high: 0,
    winter_price_surplus: 0,
    winter_price_low_threshold: DEFAULT_LOW_THRESHOLD,
    winter_price_middle_threshold: 0,
    winter_price_high_threshold: 0,
    winter_price_surplus_threshold: 0,
    winter_start_month: 11,
    winter_start_day: 1,
    winter_end_month: 3,
    winter_end_day: 31,
    base_tariff: 0,
    tax_percentage: 0,
    ...INDUSTRIAL_FIELDS,
    customer_commission: 0,
    customer_fee: 0,
    customer_tax: 0,
  };
}

type Prefix = "" | "summer_" | "winter_";

/**
 * Maps form levels by position onto the zone's `{prefix}price_*` and `*_threshold` fields.
 * Unused levels get price 0; an unused first threshold gets 150, other thresholds 0.
 * Throws RangeError with more than 4 levels.
 */
export function levelsToFields(
  levels: readonly ZoneLevel[],
  prefix: Prefix = "",
): Record<string, number> {
  if (levels.length > MAX_LEVELS) {
    throw new RangeError(`at most ${MAX_LEVELS} pricing levels are allowed, saw ${levels.length}`);
  }
  const out: Record<string, number> = {};
  LEVEL_NAMES.forEach((name, i) => {
    const level = levels[i];
    out[`${prefix}price_${name}`] = level?.price ?? 0;
    out[`${prefix}price_${name}_threshold`] = level?.threshold ??
      (i === 0 ? DEFAULT_LOW_THRESHOLD : 0);
  });
  return out;
}

/** The zone form: zone fields plus the level lists it edits. */
export type ZoneForm = Partial<Zone> & {
  levels?: ZoneLevel[];
  summer_levels?: ZoneLevel[];
  winter_levels?: ZoneLevel[];
};

/**
 * Applies the zone body rules of spec 001 section 7 to a form: defaults, levels mapped by
 * position (plain, summer and winter lists), industrial fields zeroed or false when
 * industrial_tariff is off.
 */
export function zoneBodyFromForm(form: ZoneForm): Zone {
  const { levels, summer_levels, winter_levels, effective_from: _from, ...fields } = form as
    & ZoneForm
    & { effective_from?: string };
  const zone: Zone = { ...defaultZone(), ...fields };
  if (levels) Object.assign(zone, levelsToFields(levels));
  if (summer_levels) Object.assign(zone, levelsToFields(summer_levels, "summer_"));
  if (winter_levels) Object.assign(zone, levelsToFields(winter_levels, "winter_"));
  if (!zone.industrial_tariff) Object.assign(zone, INDUSTRIAL_FIELDS);
  return zone;
}

const V = "zones.zone_form.validation.";
/** Whether a `YYYY-MM` month is within {@link VERSION_MONTHS}. */
const inVersionMonths = (month: string) =>
  month >= VERSION_MONTHS.first && month <= VERSION_MONTHS.last;
const num = (msg: string) =>
  z.number({ error: "validation.invalid" }).refine(Number.isFinite, msg).max(
    MAX_AMOUNT,
    "validation.too_large",
  );
const nonNegative = (msg: string) => num(msg).min(0, msg);
const percent = (msg: string) => num(msg).min(0, msg).max(100, msg);
const month = () =>
  z.number({ error: "validation.invalid" }).int(V + "month_range").min(1, V + "month_range").max(
    12,
    V + "month_range",
  );
const day = () =>
  z.number({ error: "validation.invalid" }).int(V + "day_range").min(1, V + "day_range").max(
    31,
    V + "day_range",
  );
const level = (price: string, threshold: string) =>
  z.object({ price: nonNegative(V + price), threshold: nonNegative(V + threshold) });
const levelList = (price: string, threshold: string) =>
  z.array(level(price, threshold)).min(1, V + "level_required").max(MAX_LEVELS, V + "max_levels");

/** Optional flat level fields (`{prefix}price_{level}` and `_threshold`), as an API body sends them. */
function flatLevelFields(): Record<string, z.ZodOptional<z.ZodNumber>> {
  const shape: Record<string, z.ZodOptional<z.ZodNumber>> = {};
  for (const prefix of ["", "summer_", "winter_"]) {
    for (const name of LEVEL_NAMES) {
      const key = `${prefix}price_${name}`;
      if (key === "price_low" || key === "summer_price_low" || key === "winter_price_low") continue;
      shape[key] = z.number({ error: "validation.invalid" }).optional();
    }
    for (const name of LEVEL_NAMES) {
      shape[`${prefix}price_${name}_threshold`] = z.number({ error: "validation.invalid" })
        .optional();
    }
  }
  return shape;
}

/**
 * Levels read from flat fields when a body sends no level list: the first level always, later
 * ones while any field of theirs is set to a non-zero value.
 */
function flatLevels(f: Record<string, unknown>, prefix: string): ZoneLevel[] {
  return levelsFromFields((k) => typeof f[prefix + k] === "number" ? f[prefix + k] as number : 0);
}

/**
 * The zone form schema. Every message is a locale key under `zones.zone_form.validation.*`
 * (spec 001 section 5); mode-dependent rules (levels, seasonal, industrial) are checked only
 * when the mode is on. Parse, then pass the result to {@link zoneBodyFromForm}.
 */
export const zoneFormSchema = z.object({
  name: z.string({ error: V + "name_required" }).refine(isCleanName, NAME_CONTROL_KEY).trim()
    .min(1, V + "name_required").max(200, "validation.too_long"),
  currency: z.enum(CURRENCIES, { error: "validation.invalid" }).default("MXN"),
  tariff_type: z.enum(TARIFF_TYPES, { error: "validation.invalid" }).default("residential"),
  billing_type: z.enum(BILLING_TYPES, { error: "validation.invalid" }).default("monthly"),
  enable_levels: z.boolean().default(false),
  seasonal_tariff: z.boolean().default(false),
  industrial_tariff: z.boolean().default(false),
  price_low: num(V + "price_per_kwh_negative").default(0),
  levels: z.array(
    z.object({ price: num(V + "price_negative"), threshold: num(V + "threshold_negative") }),
  ).optional(),
  summer_levels: z.array(
    z.object({
      price: num(V + "summer_price_negative"),
      threshold: num(V + "summer_threshold_negative"),
    }),
  ).optional(),
  winter_levels: z.array(
    z.object({
      price: num(V + "winter_price_negative"),
      threshold: num(V + "winter_threshold_negative"),
    }),
  ).optional(),
  summer_price_low: num(V + "summer_price_negative").default(0),
  winter_price_low: num(V + "winter_price_negative").default(0),
  ...flatLevelFields(),
  winter_start_month: z.number({ error: "validation.invalid" }).default(11),
  winter_start_day: z.number({ error: "validation.invalid" }).default(1),
  winter_end_month: z.number({ error: "validation.invalid" }).default(3),
  winter_end_day: z.number({ error: "validation.invalid" }).default(31),
  base_tariff: nonNegative(V + "base_tariff_negative").default(0),
  tax_percentage: percent(V + "tax_percentage_range").default(0),
  low_tension_enabled: z.boolean().default(false),
  power_factor_enabled: z.boolean().default(false),
  distribution_enabled: z.boolean().default(false),
  distribution_price: num(V + "distribution_price_negative").default(0),
  capacity_enabled: z.boolean().default(false),
  capacity_price: num(V + "capacity_price_negative").default(0),
  compensation_factor_enabled: z.boolean().default(false),
  compensation_factor_percentage: num(V + "percentage_range").default(0),
  customer_commission: percent(V + "commission_range").default(0),
  customer_fee: nonNegative(V + "monthly_fee_negative").default(0),
  customer_tax: percent(V + "customer_tax_range").default(0),
  minimum_monthly_kwh: nonNegative(V + "minimum_kwh_negative").optional(),
  fixed_charge_monthly: nonNegative(V + "fixed_charge_negative").optional(),
  dac_limit_kwh: nonNegative(V + "dac_limit_negative").optional(),
  bimonthly_double_blocks: z.boolean({ error: "validation.invalid" }).optional(),
  tariff_preset: z.string({ error: "validation.invalid" }).max(40, "validation.too_long")
    .optional(),
  ...businessZoneShape,
  /** A new version from this month (`YYYY-MM`); without it the version in force is corrected. */
  effective_from: z.string({ error: V + "effective_from_invalid" })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, V + "effective_from_invalid")
    .refine(inVersionMonths, V + "effective_from_range").optional(),
}).superRefine((f, ctx) => {
  const check = (schema: z.ZodType, value: unknown, path: string) => {
    const r = schema.safeParse(value);
    if (!r.success) {
      for (const issue of r.error.issues) {
        ctx.addIssue({ code: "custom", message: issue.message, path: [path, ...issue.path] });
      }
    }
  };
  if (!f.enable_levels && !f.seasonal_tariff) {
    check(nonNegative(V + "price_per_kwh_negative"), f.price_low, "price_low");
  }
  if (f.enable_levels) {
    check(
      levelList("price_negative", "threshold_negative"),
      f.levels ?? flatLevels(f, ""),
      "levels",
    );
  }
  if (f.seasonal_tariff) {
    check(month(), f.winter_start_month, "winter_start_month");
    check(day(), f.winter_start_day, "winter_start_day");
    check(month(), f.winter_end_month, "winter_end_month");
    check(day(), f.winter_end_day, "winter_end_day");
    if (f.enable_levels) {
      check(
        levelList("summer_price_negative", "summer_threshold_negative"),
        f.summer_levels ?? flatLevels(f, "summer_"),
        "summer_levels",
      );
      check(
        levelList("winter_price_negative", "winter_threshold_negative"),
        f.winter_levels ?? flatLevels(f, "winter_"),
        "winter_levels",
      );
    } else {
      check(nonNegative(V + "summer_price_negative"), f.summer_price_low, "summer_price_low");
      check(nonNegative(V + "winter_price_negative"), f.winter_price_low, "winter_price_low");
    }
  }
  if (f.industrial_tariff) {
    check(
      nonNegative(V + "distribution_price_negative"),
      f.distribution_price,
      "distribution_price",
    );
    check(nonNegative(V + "capacity_price_negative"), f.capacity_price, "capacity_price");
    check(
      percent(V + "percentage_range"),
      f.compensation_factor_percentage,
      "compensation_factor_percentage",
    );
  }
});

/** Validates a zone form body and applies the body rules; throws the zod error when invalid. */
export function parseZoneBody(body: unknown): Zone {
  return zoneBodyFromForm(zoneFormSchema.parse(body));
}
