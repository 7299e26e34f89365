/**
 * What a unit bill keeps about how it was priced: its `calculation_details` (the pricing mode,
 * season, tier lines and the additions of real tariffs, price versions, high consumption and
 * estimation, each said only when it applies) and its `zone_snapshot` (the zone's prices it was
 * billed with). Written by the billing run and recalculation (core/bill.ts); read by the API, the
 * report pages and PDFs and the lists as these types say.
 *
 * Bills kept from before a field existed are read into these shapes once, when they leave the
 * store ({@link readUnitBillDetails}, {@link readZoneSnapshot}, called by db/_bill_keys.ts).
 */
import type { PricingMode, Season, UnitBillResult } from "./tariff.ts";
import type { HighConsumption } from "./dac.ts";
import type { Zone } from "./zone.ts";
import type { ZoneVersion } from "./zone_versions.ts";
import type { BusinessDetails } from "./business_bill.ts";

/**
 * One tier line of a bill (core/tariff.ts `TierDetail`; `part`: the index of its price version
 * when the period was split). The limits are absent on a bill that kept only its tier lines.
 */
export interface BillTier {
  /** A level name (`low`, `middle`, …) on a bill of the billing run. */
  level: string;
  description: string;
  from_kwh?: number;
  to_kwh?: number | null;
  kwh: number;
  price: number;
  /** Cost of the tier in cents. */
  tier_cost: number;
  part?: number;
}

/** A run of days of the bill's period priced by one price version. */
export interface PriceVersionPart {
  /** First day the version applies (`YYYY-MM-DD`); null: the zone's first version. */
  applies_from: string | null;
  /** The part's first and last day (or ISO instants `[from, to)` for a tenancy's part). */
  from: string;
  to: string;
  days: number;
}

/** How an estimated energy was found: the method and its level (core/estimation.ts). */
export interface BillEstimation {
  method: string;
  level: number;
}

/** A unit bill's `calculation_details`; amounts in integer cents. */
export interface UnitBillDetails {
  /** Null on a bill that kept only its tier lines. */
  pricing_mode: PricingMode | null;
  /** The season whose prices applied; null for a non-seasonal zone. */
  season: Season | null;
  /** Days of the period in each season (absent on a bill that kept only its tier lines). */
  winter_days?: number;
  summer_days?: number;
  tiers: BillTier[];
  /** The minimum consumption billed (kWh), when use was below it. */
  minimum_kwh?: number;
  billed_kwh?: number;
  /** The fixed charge (cents, within base_tariff), when the zone has one. */
  fixed_charge?: number;
  blocks_doubled?: true;
  /** The price versions the period was split into, when more than one. */
  price_versions?: PriceVersionPart[];
  high_consumption?: HighConsumption;
  /** How the energy was estimated, when it was. */
  estimation?: BillEstimation;
  /** A business tariff's bands, demand and power factor (core/business_bill.ts), when billed so. */
  business?: BusinessDetails;
}

/**
 * A unit bill's `zone_snapshot`: the zone as it priced the bill (the prices of the period's
 * last day) with the stored zone's id, and every price version used when the period was split.
 */
export type ZoneSnapshot = Zone & { id: number; price_versions?: ZoneVersion[] };

/** A computed bill with what billing adds: its price versions and its high-consumption fact. */
export type PricedBill = UnitBillResult & {
  parts?: PriceVersionPart[];
  high_consumption?: HighConsumption | null;
  business?: BusinessDetails;
};

/** The details of a unit bill priced as `computed` (the additions only when they apply). */
export function unitBillDetails(computed: PricedBill): UnitBillDetails {
  const d: UnitBillDetails = {
    pricing_mode: computed.pricing_mode,
    season: computed.season,
    winter_days: computed.winter_days,
    summer_days: computed.summer_days,
    tiers: computed.calculation_details,
  };
  if ((computed.billed_kwh ?? 0) > computed.energy_consumption) {
    d.minimum_kwh = computed.minimum_kwh;
    d.billed_kwh = computed.billed_kwh;
  }
  if ((computed.fixed_charge ?? 0) > 0) d.fixed_charge = computed.fixed_charge;
  if (computed.blocks_doubled) d.blocks_doubled = true;
  if (computed.parts && computed.parts.length > 1) d.price_versions = computed.parts;
  if (computed.high_consumption) d.high_consumption = computed.high_consumption;
  if (computed.business) d.business = computed.business;
  return d;
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => !!v && typeof v === "object" && !Array.isArray(v);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Whether stored details have the shape the billing run writes (the common case, checked fast). */
function isCurrent(raw: unknown): raw is UnitBillDetails {
  return isObject(raw) && Array.isArray(raw.tiers) && "pricing_mode" in raw;
}

/** A tier line kept by an older bill (`tierCost` in some), as a {@link BillTier}. */
function readTier(t: Loose): BillTier {
  return {
    level: str(t.level),
    description: str(t.description),
    kwh: num(t.kwh),
    price: num(t.price),
    tier_cost: Math.round(num(t.tier_cost ?? t.tierCost)),
  };
}

/** The high-consumption fact kept by an older bill, when it is readable. */
function readHighConsumption(h: unknown): HighConsumption | null {
  if (!isObject(h)) return null;
  return typeof h.average_kwh === "number" && typeof h.limit_kwh === "number" &&
      typeof h.months === "number"
    ? {
      average_kwh: h.average_kwh,
      months: h.months,
      limit_kwh: h.limit_kwh,
      exceeded: h.exceeded === true,
    }
    : null;
}

/**
 * Stored `calculation_details` as {@link UnitBillDetails}: the billing run's object as it is;
 * a bare list of tier lines, an object without them or nothing, read into the object (tier
 * lines that are no objects left out, the additions kept where readable).
 */
export function readUnitBillDetails(raw: unknown): UnitBillDetails {
  if (isCurrent(raw)) return raw;
  const obj = isObject(raw) ? raw : {};
  const list = Array.isArray(raw) ? raw : Array.isArray(obj.tiers) ? obj.tiers : [];
  const d: UnitBillDetails = {
    pricing_mode: typeof obj.pricing_mode === "string" ? obj.pricing_mode as PricingMode : null,
    season: obj.season === "winter" || obj.season === "summer" ? obj.season : null,
    tiers: list.filter(isObject).map(readTier),
  };
  if (typeof obj.winter_days === "number") d.winter_days = obj.winter_days;
  if (typeof obj.summer_days === "number") d.summer_days = obj.summer_days;
  if (typeof obj.minimum_kwh === "number") d.minimum_kwh = obj.minimum_kwh;
  if (typeof obj.billed_kwh === "number") d.billed_kwh = obj.billed_kwh;
  if (typeof obj.fixed_charge === "number") d.fixed_charge = obj.fixed_charge;
  if (obj.blocks_doubled === true) d.blocks_doubled = true;
  if (Array.isArray(obj.price_versions)) {
    d.price_versions = obj.price_versions.filter(isObject).map((p) => ({
      applies_from: typeof p.applies_from === "string" ? p.applies_from : null,
      from: String(p.from ?? ""),
      to: String(p.to ?? ""),
      days: num(p.days),
    }));
  }
  const high = readHighConsumption(obj.high_consumption);
  if (high) d.high_consumption = high;
  if (isObject(obj.estimation)) {
    d.estimation = { method: str(obj.estimation.method), level: num(obj.estimation.level) };
  }
  return d;
}

/** Whether a stored value is a zone (its currency and base tariff), as a snapshot must be. */
const isZone = (v: unknown): v is Loose =>
  isObject(v) && typeof v.currency === "string" && typeof v.base_tariff === "number";

/**
 * A stored `zone_snapshot` as a {@link ZoneSnapshot}, or null when the bill kept none (or
 * something that is no zone). Its id is the bill's zone (`zoneId`); the price versions kept
 * before zone ids were numbers everywhere carry it as text, read as the number.
 */
export function readZoneSnapshot(raw: unknown, zoneId: number): ZoneSnapshot | null {
  if (!isZone(raw)) return null;
  const s = raw as ZoneSnapshot & Loose;
  const textIds = s.price_versions?.some((v) => typeof v.zone.id !== "number") ?? false;
  if (typeof s.id === "number" && !textIds) return s;
  const id = typeof s.id === "number" ? s.id : zoneId;
  const out: ZoneSnapshot = { ...s, id };
  if (textIds) {
    out.price_versions = s.price_versions!.map((v) => ({ ...v, zone: { ...v.zone, id } }));
  }
  return out;
}
