/**
 * Price versions of a zone (issue 17): which version is in force on a day, and a period priced
 * by the versions of its days. A version applies from its first day (`YYYY-MM-DD`, a month's
 * first day when made through the API or the form) until the next one; the first version
 * (`applies_from` null) applies to every day before the next version, so a zone created today
 * still bills last year.
 *
 * A period that spans a change is split by days: each part is the whole period priced at that
 * part's version, weighted by its share of the days. For tiers this is the same as prorating
 * both the energy and the block limits by days (a tier's cost scales with both). Each weighted
 * amount is rounded half up to cents; a period within one version bills exactly as
 * `computeUnitBill` does.
 */
import { computeUnitBill, type TierDetail, type UnitBillResult } from "./tariff.ts";
import type { Zone } from "./zone.ts";
import { type DateParts, formatDate, parsePeriod, periodDays } from "./periods.ts";

/** One change to the prices of a zone (spec 001 section 3, zone history entry). */
export interface ZoneHistoryEntry {
  effective_from: string;
  price_low: number;
  price_middle: number;
  price_high: number;
  price_surplus: number;
  summer_price_low: number;
  winter_price_low: number;
}

/** One version of a zone's prices. */
export interface ZoneVersion {
  /** First day it applies (`YYYY-MM-DD`); null: the first version, before every other. */
  applies_from: string | null;
  zone: Zone;
}

/** A run of consecutive days of a period priced by one version. */
interface VersionPart {
  version: ZoneVersion;
  /** First and last day of the part, `YYYY-MM-DD`. */
  from: string;
  to: string;
  days: number;
}

/** A bill priced by versions: the amounts, and the parts it used (one when not split). */
export interface VersionedBill extends UnitBillResult {
  parts: { applies_from: string | null; from: string; to: string; days: number }[];
}

const key = (v: ZoneVersion) => v.applies_from ?? "";

/** Versions ordered by the day they apply from (the first version first). */
function sortVersions(versions: readonly ZoneVersion[]): ZoneVersion[] {
  return [...versions].sort((a, b) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

/**
 * The version in force on `date` (`YYYY-MM-DD`): the latest that applies from that day or
 * before; a day before every version takes the earliest. Throws RangeError without versions.
 */
export function versionOn(versions: readonly ZoneVersion[], date: string): ZoneVersion {
  const sorted = sortVersions(versions);
  if (sorted.length === 0) throw new RangeError("a zone needs at least one price version");
  let found = sorted[0];
  for (const v of sorted) if (key(v) <= date) found = v;
  return found;
}

/** The version in force on the last day of `period` (a station bill's commission, fee, tax). */
export function versionAtEnd(versions: readonly ZoneVersion[], period: string): ZoneVersion {
  return versionOn(versions, formatDate(periodDays(parsePeriod(period)).at(-1)!));
}

/** The days of `period` grouped into runs priced by one version, in order. */
export function versionParts(versions: readonly ZoneVersion[], period: string): VersionPart[] {
  const parts: VersionPart[] = [];
  for (const d of periodDays(parsePeriod(period))) {
    const date = formatDate(d as DateParts);
    const version = versionOn(versions, date);
    const last = parts[parts.length - 1];
    if (last && last.version === version) {
      last.to = date;
      last.days++;
    } else parts.push({ version, from: date, to: date, days: 1 });
  }
  return parts;
}

/** `cents × days / total`, rounded half up. */
const share = (cents: number, days: number, total: number) =>
  Math.floor((cents * days * 2 + total) / (total * 2));

/**
 * Prices `energyKwh` of `period` by the versions of its days. One part: `computeUnitBill` of
 * that version. Several: each amount is the sum of each part's amount weighted by its days,
 * the tiers of every part are listed with their weighted cost and the part they belong to.
 */
export function computeVersionedBill(
  versions: readonly ZoneVersion[],
  energyKwh: number,
  period: string,
): VersionedBill {
  const parts = versionParts(versions, period);
  const total = parts.reduce((n, p) => n + p.days, 0);
  const bills = parts.map((p) => computeUnitBill(p.version.zone, energyKwh, { period }));
  const partsOut = parts.map((p) => ({
    applies_from: p.version.applies_from,
    from: p.from,
    to: p.to,
    days: p.days,
  }));
  if (bills.length === 1) return { ...bills[0], parts: partsOut };
  const last = bills[bills.length - 1];
  const sum = (f: (b: UnitBillResult) => number) =>
    bills.reduce((n, b, i) => n + share(f(b), parts[i].days, total), 0);
  const details: (TierDetail & { part: number })[] = bills.flatMap((b, i) =>
    b.calculation_details.map((t) => ({
      ...t,
      description: `${t.description} (${parts[i].from} – ${parts[i].to}, ${
        parts[i].days
      }/${total} d)`,
      tier_cost: share(t.tier_cost, parts[i].days, total),
      part: i,
    }))
  );
  const energy_cost = details.reduce((n, t) => n + t.tier_cost, 0);
  const base_tariff = sum((b) => b.base_tariff);
  const compensation_cost = sum((b) => b.compensation_cost);
  const tax_cost = sum((b) => b.tax_cost);
  return {
    ...last,
    energy_cost,
    base_tariff,
    compensation_cost,
    tax_cost,
    total_cost: energy_cost + base_tariff + compensation_cost + tax_cost,
    fixed_charge: sum((b) => b.fixed_charge ?? 0),
    calculation_details: details,
    parts: partsOut,
  };
}

/** The first day of a `YYYY-MM` month, `YYYY-MM-01`. */
export function firstDayOf(month: string): string {
  return `${month}-01`;
}
