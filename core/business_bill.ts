/**
 * A unit bill of a business tariff (GDMTO/GDMTH, issue 34) from the unit's own measurements:
 * energy priced per time band, distribution and capacity charged on demand in kW, the 2 % of
 * metering on the low-tension side, and the power factor surcharge or bonus.
 *
 * The bill keeps the spec's four amounts: `energy_cost` is the bands' energy, `base_tariff` the
 * zone's base tariff and fixed charge as for any zone, and `compensation_cost` (the industrial
 * additions) holds the demand charges, the low-tension 2 % and the power factor adjustment,
 * each itemized in {@link BusinessDetails}. Tax is on the sum, as for every bill. Every amount
 * is integer cents, each line rounded half up. Pure.
 */
import { amountCents, percentOfCents, toCents, type UnitBillResult } from "./tariff.ts";
import type { Zone } from "./zone.ts";
import { type Band, type BandEnergy, BANDS, type BandSchedule, bandSchedule } from "./tou.ts";
import { capacityDemand, type DemandPeak, type PeriodDemand } from "./demand.ts";
import {
  DEFAULT_PF_THRESHOLD,
  type PowerFactorAdjustment,
  powerFactorAdjustment,
  powerFactorOf,
} from "./power_factor.ts";
import { parsePeriod } from "./periods.ts";

/** What the unit's meter says of a period, read by the billing run. */
export interface BusinessUsage {
  bands: BandEnergy;
  demand: PeriodDemand;
  /** The highest demand (kW) of the 12 months ending with this period, this one included. */
  year_max_kw: number;
  /** Apparent energy (kVAh) of the period; null when the meter gave none. */
  apparent_kvah: number | null;
}

/** One demand charge: the kW billed, its price and cost (cents). */
export interface DemandCharge {
  kw: number;
  price: number;
  cost: number;
}

/** What a business bill adds to its `calculation_details`. */
export interface BusinessDetails {
  schedule: string;
  /** kWh and cost (cents) per band. */
  bands: Record<Band, { kwh: number; price: number; cost: number }>;
  demand: { max: DemandPeak; punta: DemandPeak; year_max_kw: number; floor_percentage: number };
  distribution: DemandCharge | null;
  capacity: DemandCharge | null;
  /** The 2 % of a service metered on the low-tension side (cents), when the zone says so. */
  low_tension: number | null;
  /** The power factor adjustment and its amount (cents; negative for a bonus). */
  power_factor: (PowerFactorAdjustment & { amount: number }) | null;
  /** Parts of the bill that were estimated, and how (a period whose detail is missing). */
  estimated?: string[];
}

/** A business bill: the unit bill figures and its itemized additions. */
export interface BusinessBill extends UnitBillResult {
  business: BusinessDetails;
}

/** The zone's band schedule when it bills by time of use, or null. */
export function businessSchedule(zone: Zone): BandSchedule | null {
  return bandSchedule(zone.tou_schedule || undefined);
}

const LOW_TENSION_PERCENT = 2;
const BAND_PRICE: Record<Band, "price_base" | "price_intermedia" | "price_punta"> = {
  base: "price_base",
  intermedia: "price_intermedia",
  punta: "price_punta",
};
const LABEL: Record<Band, string> = { base: "Base", intermedia: "Intermedia", punta: "Punta" };

/**
 * Options of {@link computeBusinessBill}: a part's base tariff and fixed charge in cents
 * (prorated by the caller, as core/part_bill.ts does for any zone), the parts estimated.
 */
interface BusinessBillOptions {
  fixedAmounts?: { base_tariff: number; fixed_charge: number };
  estimated?: string[];
}

/**
 * Prices a period of a business zone: `usage` from the unit's meter, `period` for the base
 * tariff and fixed charge of each month (as {@link computeUnitBill}).
 */
export function computeBusinessBill(
  zone: Zone,
  usage: BusinessUsage,
  period: string,
  options: BusinessBillOptions = {},
): BusinessBill {
  const schedule = businessSchedule(zone);
  if (!schedule) throw new RangeError(`zone has no known band schedule: "${zone.tou_schedule}"`);
  const months = parsePeriod(period).months.length;
  const bands = {} as BusinessDetails["bands"];
  for (const b of BANDS) {
    const price = zone[BAND_PRICE[b]] ?? 0;
    bands[b] = { kwh: usage.bands[b], price, cost: amountCents(usage.bands[b], price) };
  }
  const energy_cost = BANDS.reduce((n, b) => n + bands[b].cost, 0);
  const energyKwh = Math.round(BANDS.reduce((n, b) => n + usage.bands[b], 0) * 1000) / 1000;
  const fixed_charge = options.fixedAmounts?.fixed_charge ??
    amountCents(zone.fixed_charge_monthly ?? 0, months);
  const base_tariff = options.fixedAmounts?.base_tariff ??
    toCents(zone.base_tariff) + fixed_charge;
  const industrial = zone.industrial_tariff;
  const floor = zone.capacity_floor_percentage ?? 0;
  const charge = (kw: number, price: number): DemandCharge => ({
    kw,
    price,
    cost: amountCents(kw, price),
  });
  const distribution = industrial && zone.distribution_enabled
    ? charge(usage.demand.max.kw, zone.distribution_price)
    : null;
  const capacity = industrial && zone.capacity_enabled
    ? charge(capacityDemand(usage.demand.punta.kw, usage.year_max_kw, floor), zone.capacity_price)
    : null;
  const demandCost = (distribution?.cost ?? 0) + (capacity?.cost ?? 0);
  const beforeTension = base_tariff + energy_cost + demandCost;
  const low_tension = industrial && zone.low_tension_enabled
    ? percentOfCents(beforeTension, LOW_TENSION_PERCENT)
    : null;
  const fp = powerFactorOf(energyKwh, usage.apparent_kvah ?? 0);
  let power_factor: BusinessDetails["power_factor"] = null;
  if (industrial && zone.power_factor_enabled && fp !== null && fp > 0) {
    const adj = powerFactorAdjustment(fp, zone.power_factor_threshold || DEFAULT_PF_THRESHOLD);
    const amount = percentOfCents(beforeTension + (low_tension ?? 0), adj.percent);
    power_factor = { ...adj, amount: adj.kind === "bonus" ? -amount : amount };
  }
  const compensation_cost = demandCost + (low_tension ?? 0) + (power_factor?.amount ?? 0);
  const tax_cost = percentOfCents(
    base_tariff + energy_cost + compensation_cost,
    zone.tax_percentage,
  );
  return {
    pricing_mode: "basic",
    energy_consumption: energyKwh,
    energy_cost,
    base_tariff,
    compensation_cost,
    tax_cost,
    total_cost: base_tariff + energy_cost + compensation_cost + tax_cost,
    currency: zone.currency,
    season: null,
    winter_days: 0,
    summer_days: 0,
    calculation_details: BANDS.map((b) => ({
      level: b,
      description: `${LABEL[b]}: ${bands[b].kwh} kWh × ${bands[b].price}`,
      from_kwh: 0,
      to_kwh: null,
      kwh: bands[b].kwh,
      price: bands[b].price,
      tier_cost: bands[b].cost,
    })),
    billed_kwh: energyKwh,
    minimum_kwh: 0,
    fixed_charge,
    blocks_doubled: false,
    business: {
      schedule: schedule.id,
      bands,
      demand: {
        max: usage.demand.max,
        punta: usage.demand.punta,
        year_max_kw: usage.year_max_kw,
        floor_percentage: floor,
      },
      distribution,
      capacity,
      low_tension,
      power_factor,
      ...(options.estimated?.length ? { estimated: options.estimated } : {}),
    },
  };
}
