/**
 * The view model of the admin billing pages (spec 001 sections 2, 4 and 5): the picker values
 * (zone, year, period with their defaults and resets) and small formatting helpers (the bill
 * status derivations are core/bill.ts's). Pure: "today" is a parameter.
 */
import {
  type DateParts,
  defaultPeriod,
  parsePeriod,
  type PeriodKind,
  periodOptions,
} from "../../core/periods.ts";

export type { ZoneChoice } from "../../services/billing/lists.ts";
import type { ZoneChoice } from "../../services/billing/lists.ts";

/** The raw query of a billing page. */
interface PickerQuery {
  zone_id?: string;
  year?: string;
  period?: string;
}

/** What the pickers show and the lists use. */
export interface Pickers {
  zones: ZoneChoice[];
  /** The selected zone; null when there are no zones. */
  zone: ZoneChoice | null;
  kind: PeriodKind;
  years: number[];
  year: number;
  periods: string[];
  period: string;
}

/**
 * Resolves the pickers: the first zone when none (or an unknown one) is asked for; the year
 * list is the current year plus the years of `billYears`, descending; the period is kept only
 * when it belongs to the selected year and billing type, else the default period (spec 001
 * section 4: changing zone or year resets the period).
 */
export function resolvePickers(
  zones: ZoneChoice[],
  query: PickerQuery,
  billYears: (zone: ZoneChoice) => number[],
  today: DateParts,
): Pickers {
  const askedZone = /^\d{1,15}$/.test(query.zone_id ?? "") ? Number(query.zone_id) : null;
  const zone = zones.find((z) => z.id === askedZone) ?? zones[0] ?? null;
  const kind: PeriodKind = zone?.billing_type ?? "monthly";
  const years = [...new Set([today.year, ...(zone ? billYears(zone) : [])])]
    .filter((y) => Number.isInteger(y) && y >= 1970 && y <= 9999)
    .sort((a, b) => b - a);
  const askedYear = /^\d{4}$/.test(query.year ?? "") ? Number(query.year) : null;
  const year = askedYear !== null && years.includes(askedYear) ? askedYear : today.year;
  const periods = periodOptions(kind, year, today);
  const period = periods.includes(query.period ?? "")
    ? query.period!
    : defaultPeriod(kind, year, today);
  return { zones, zone, kind, years, year, periods, period };
}

/** The year of a period text, or null when it is not a period. */
export function yearOfPeriod(text: string | null): number | null {
  try {
    return parsePeriod(text).year;
  } catch {
    return null;
  }
}

/** The first word of a name, or null when there is none. */
export function firstWord(name: string | null | undefined): string | null {
  const word = (name ?? "").trim().split(/\s+/)[0];
  return word ? word : null;
}

/** Energy in kWh with two decimals. */
export function kwhText(kwh: number): string {
  return kwh.toFixed(2);
}

export { periodLabel } from "../../core/periods.ts";

/** The query string of a billing page for the given picker values and extra flags. */
export function pageQuery(
  values: { zone_id?: number | null; year?: number | null; period?: string | null },
  extra: Record<string, string | number> = {},
): string {
  const q = new URLSearchParams();
  if (values.zone_id) q.set("zone_id", String(values.zone_id));
  if (values.year) q.set("year", String(values.year));
  if (values.period) q.set("period", values.period);
  for (const [k, v] of Object.entries(extra)) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
