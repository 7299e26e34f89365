/**
 * The tariff engine (spec 001 section 5, "Billing calculation"): a unit bill in integer cents
 * from a zone and the energy of a period. Basic, tiered, seasonal and seasonal tiered pricing,
 * compensation for industrial tariffs, base tariff and tax.
 *
 * Decimal numbers are converted exactly: each number is read from its shortest decimal text
 * (`1.015` is 1015/1000, not the binary double), products are BigInt, and every rounding is
 * half up to cents, so a tier cost of 76.125 becomes 7613 cents.
 *
 * Season of a period: the season of the majority of its days (a tie goes to the season of the
 * last day); the result records the season applied and the days of each season.
 *
 * Additions of real tariffs, each off unless the zone sets it: a minimum monthly consumption
 * (billed in place of a lower use), a fixed charge per month of the period (added to the bill's
 * base tariff amount), and block limits doubled for a bimonthly period.
 */
import { type LevelName, levelsFromFields, type Zone } from "./zone.ts";
import { type DateParts, parsePeriod, periodDays } from "./periods.ts";
import type { Band } from "./tou.ts";

/** An exact decimal: `n / 10^s`. */
interface Decimal {
  n: bigint;
  s: number;
}

/** Reads a finite number as the exact decimal of its shortest text. Throws RangeError if not finite. */
export function toDecimal(x: number): Decimal {
  if (!Number.isFinite(x)) throw new RangeError(`expected a finite number, saw ${x}`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new RangeError(`cannot read ${x} as a decimal`);
  const frac = m[3] ?? "";
  let n = BigInt(m[2] + frac);
  let s = frac.length - Number(m[4] ?? 0);
  if (s < 0) {
    n *= 10n ** BigInt(-s);
    s = 0;
  }
  return { n: m[1] ? -n : n, s };
}

/** `num / den` rounded half away from zero (den > 0). */
function roundDiv(num: bigint, den: bigint): bigint {
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + den) / (den * 2n);
  return neg ? -q : q;
}

/** Product of decimals times `factor / divisor`, rounded half up to an integer. */
function mulRound(values: Decimal[], factor = 1n, divisor = 1n): number {
  let n = factor;
  let s = 0;
  for (const v of values) {
    n *= v.n;
    s += v.s;
  }
  return Number(roundDiv(n, divisor * 10n ** BigInt(s)));
}

/** A decimal amount of money (e.g. 76.125) in cents, rounded half up (7613). */
export function toCents(amount: number): number {
  return mulRound([toDecimal(amount)], 100n);
}

/** `quantity × price` (kWh × $/kWh, kW × $/kW) in cents, exactly, rounded half up. */
export function amountCents(quantity: number, price: number): number {
  return mulRound([toDecimal(quantity), toDecimal(price)], 100n);
}

/** `cents × percent / 100`, rounded half up to cents (tax, commission, compensation). */
export function percentOfCents(cents: number, percent: number): number {
  if (!Number.isSafeInteger(cents)) {
    throw new RangeError(`cents must be a safe integer, saw ${cents}`);
  }
  return mulRound([{ n: BigInt(cents), s: 0 }, toDecimal(percent)], 1n, 100n);
}

/** The season whose prices apply. */
export type Season = "summer" | "winter";

/** True when month/day falls in the zone's winter window (inclusive; may wrap the new year). */
export function isWinterDay(zone: Zone, month: number, day: number): boolean {
  const d = month * 100 + day;
  const start = zone.winter_start_month * 100 + zone.winter_start_day;
  const end = zone.winter_end_month * 100 + zone.winter_end_day;
  return start <= end ? d >= start && d <= end : d >= start || d <= end;
}

/** Season of a period: days in each season, and the majority (tie: the last day's season). */
function seasonOfDays(
  zone: Zone,
  days: DateParts[],
): { season: Season; winter_days: number; summer_days: number } {
  if (days.length === 0) throw new RangeError("a period needs at least one day, saw none");
  const winter_days = days.filter((d) => isWinterDay(zone, d.month, d.day)).length;
  const summer_days = days.length - winter_days;
  const last = days[days.length - 1];
  const season: Season = winter_days > summer_days
    ? "winter"
    : summer_days > winter_days
    ? "summer"
    : isWinterDay(zone, last.month, last.day)
    ? "winter"
    : "summer";
  return { season, winter_days, summer_days };
}

/** One tier of an energy cost, in the bill's calculation_details. */
export interface TierDetail {
  /** A level, or a time band of a business bill (core/business_bill.ts). */
  level: LevelName | Band;
  description: string;
  /** kWh above which the tier starts, and where it ends (null: open-ended). */
  from_kwh: number;
  to_kwh: number | null;
  kwh: number;
  price: number;
  /** Cost of the tier in cents, rounded half up. */
  tier_cost: number;
}

/** Pricing mode from enable_levels and seasonal_tariff. */
export type PricingMode = "basic" | "tiered" | "seasonal" | "seasonal_tiered";

/** What a unit bill comes to: its energy (kWh) and its amounts (integer cents). */
export interface UnitBillFigures {
  energy_consumption: number;
  energy_cost: number;
  base_tariff: number;
  compensation_cost: number;
  tax_cost: number;
  total_cost: number;
}

/** A unit bill computed by {@link computeUnitBill}; every amount in integer cents. */
export interface UnitBillResult extends UnitBillFigures {
  pricing_mode: PricingMode;
  currency: Zone["currency"];
  /** Season whose prices applied, null for a non-seasonal zone. */
  season: Season | null;
  winter_days: number;
  summer_days: number;
  calculation_details: TierDetail[];
  /** kWh priced: the consumption, or the zone's minimum when use is below it. */
  billed_kwh?: number;
  /** The minimum of the period in kWh (0: none) and the fixed charge in cents (in base_tariff). */
  minimum_kwh?: number;
  fixed_charge?: number;
  /** Whether the block limits were doubled (bimonthly period, zone setting on). */
  blocks_doubled?: boolean;
}

/**
 * The share of its period that a bill covers (a tenancy's part, issue 24): `part` of `whole`
 * (any unit, e.g. milliseconds). The block limits and the minimum consumption are prorated by
 * it, to the Wh.
 */
interface PeriodShare {
  part: number;
  whole: number;
}

/** `kwh × part / whole` rounded to the Wh (3 decimals; meters count Wh). */
function prorateKwh(kwh: number, share: PeriodShare): number {
  return Math.round(kwh * share.part / share.whole * 1000) / 1000;
}

/**
 * Options of {@link computeUnitBill}: the period (`YYYY-MM` / `YYYY-MM-MM`) or a forced
 * season; for a bill of part of the period, its share and its base tariff and fixed charge in
 * cents (prorated by the caller so that the parts of a period add up to the whole).
 */
interface UnitBillOptions {
  period?: string;
  season?: Season;
  share?: PeriodShare;
  fixedAmounts?: { base_tariff: number; fixed_charge: number };
}

/** The pricing mode of a zone (four combinations of enable_levels and seasonal_tariff). */
export function pricingMode(zone: Zone): PricingMode {
  if (zone.seasonal_tariff) return zone.enable_levels ? "seasonal_tiered" : "seasonal";
  return zone.enable_levels ? "tiered" : "basic";
}

const LEVELS: LevelName[] = ["low", "middle", "high", "surplus"];
const LABELS: Record<LevelName, string> = {
  low: "Low Level",
  middle: "Middle Level",
  high: "High Level",
  surplus: "Surplus",
};

/** A tier of a zone: level, price per kWh and the kWh range (from, to]; `to` null is open-ended. */
interface Tier {
  level: LevelName;
  price: number;
  from: Decimal;
  to: Decimal | null;
}

function cmp(a: Decimal, b: Decimal): number {
  const s = Math.max(a.s, b.s);
  const x = a.n * 10n ** BigInt(s - a.s);
  const y = b.n * 10n ** BigInt(s - b.s);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sub(a: Decimal, b: Decimal): Decimal {
  const s = Math.max(a.s, b.s);
  return { n: a.n * 10n ** BigInt(s - a.s) - b.n * 10n ** BigInt(s - b.s), s };
}

const decToNumber = (d: Decimal) => Number(d.n) / 10 ** d.s;

/**
 * Tiers of a zone for a season. Without levels: one flat low price. With levels: low, middle,
 * high, surplus by cumulative thresholds; trailing unused levels (price 0 and threshold 0)
 * are dropped and the last remaining level is open-ended.
 */
export function buildTiers(
  zone: Zone,
  season: Season | null,
  factor = 1,
  share?: PeriodShare,
): Tier[] {
  const prefix = season ? `${season}_` : "";
  const field = (k: string) => (zone as unknown as Record<string, number>)[prefix + k] ?? 0;
  if (!zone.enable_levels) {
    return [{ level: "low", price: field("price_low"), from: { n: 0n, s: 0 }, to: null }];
  }
  const levels = levelsFromFields(field).map((l, i) => ({ level: LEVELS[i], ...l }));
  const tiers: Tier[] = [];
  let from: Decimal = { n: 0n, s: 0 };
  levels.forEach((l, i) => {
    if (i === levels.length - 1) {
      tiers.push({ level: l.level, price: l.price, from, to: null });
      return;
    }
    let to = toDecimal(share ? prorateKwh(l.threshold * factor, share) : l.threshold * factor);
    if (cmp(to, from) < 0) to = from;
    tiers.push({ level: l.level, price: l.price, from, to });
    from = to;
  });
  return tiers;
}

/**
 * Computes a unit bill: energy cost tier by tier (each rounded half up to cents), compensation
 * (industrial tariff with compensation enabled: energy cost × percentage), tax on base tariff
 * plus energy plus compensation, and the total. A seasonal zone needs `options.period` or
 * `options.season`. Throws TypeError/RangeError for bad consumption, period or missing season.
 */
export function computeUnitBill(
  zone: Zone,
  energyKwh: number,
  options: UnitBillOptions = {},
): UnitBillResult {
  if (typeof energyKwh !== "number") {
    throw new TypeError(`energy must be a number of kWh, saw ${typeof energyKwh}`);
  }
  if (!Number.isFinite(energyKwh) || energyKwh < 0) {
    throw new RangeError(`energy must be a finite kWh value ≥ 0, saw ${energyKwh}`);
  }
  let season: Season | null = null;
  let winter_days = 0;
  let summer_days = 0;
  if (zone.seasonal_tariff) {
    if (options.period !== undefined) {
      const s = seasonOfDays(zone, periodDays(parsePeriod(options.period)));
      ({ winter_days, summer_days } = s);
      season = options.season ?? s.season;
    } else if (options.season) {
      season = options.season;
    } else {
      throw new TypeError("a seasonal zone needs options.period or options.season, saw neither");
    }
  }
  const months = options.period === undefined ? 1 : parsePeriod(options.period).months.length;
  const share = options.share;
  const minimum_kwh = share
    ? prorateKwh((zone.minimum_monthly_kwh ?? 0) * months, share)
    : (zone.minimum_monthly_kwh ?? 0) * months;
  const billed_kwh = Math.max(energyKwh, minimum_kwh);
  const blocks_doubled = zone.bimonthly_double_blocks === true && months === 2;
  const energy = toDecimal(billed_kwh);
  const details: TierDetail[] = [];
  for (const tier of buildTiers(zone, season, blocks_doubled ? 2 : 1, share)) {
    if (cmp(energy, tier.from) <= 0 && details.length > 0) break;
    const top = tier.to && cmp(energy, tier.to) > 0 ? tier.to : energy;
    const kwhDec = cmp(top, tier.from) > 0 ? sub(top, tier.from) : { n: 0n, s: 0 };
    const kwh = decToNumber(kwhDec);
    details.push({
      level: tier.level,
      description: `${LABELS[tier.level]}: ${kwh} kWh × ${tier.price}`,
      from_kwh: decToNumber(tier.from),
      to_kwh: tier.to ? decToNumber(tier.to) : null,
      kwh,
      price: tier.price,
      tier_cost: mulRound([kwhDec, toDecimal(tier.price)], 100n),
    });
  }
  const energy_cost = details.reduce((sum, d) => sum + d.tier_cost, 0);
  const compensation_cost = zone.industrial_tariff && zone.compensation_factor_enabled
    ? percentOfCents(energy_cost, zone.compensation_factor_percentage)
    : 0;
  const fixed_charge = options.fixedAmounts?.fixed_charge ??
    mulRound([toDecimal(zone.fixed_charge_monthly ?? 0)], 100n * BigInt(months));
  const base_tariff = (options.fixedAmounts?.base_tariff ?? toCents(zone.base_tariff)) +
    fixed_charge;
  const tax_cost = percentOfCents(
    base_tariff + energy_cost + compensation_cost,
    zone.tax_percentage,
  );
  return {
    pricing_mode: pricingMode(zone),
    energy_consumption: energyKwh,
    energy_cost,
    base_tariff,
    compensation_cost,
    tax_cost,
    total_cost: base_tariff + energy_cost + compensation_cost + tax_cost,
    currency: zone.currency,
    season,
    winter_days,
    summer_days,
    calculation_details: details,
    billed_kwh,
    minimum_kwh,
    fixed_charge,
    blocks_doubled,
  };
}
