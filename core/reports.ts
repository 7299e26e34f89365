/**
 * The view model shared by the report pages and the PDF reports (spec 001 sections 3, 4
 * and 5): the lines of the additions a unit bill keeps, the zone it was priced with, the
 * periods of a year and their timing, the station report's period choices and the city of a
 * station. Pure.
 */
import { type BusinessLineKind, businessLines } from "./business_lines.ts";
import type { Zone } from "./zone.ts";
import type { UnitBillDetails, ZoneSnapshot } from "./bill_details.ts";
import { parseLocation } from "./device_rules.ts";
import {
  bimonthlyPeriod,
  type DateParts,
  monthlyPeriod,
  parsePeriod,
  type PeriodKind,
  periodOptions,
} from "./periods.ts";

/** The reader's language (`services/platform/i18n.ts`'s `Translate`). */
type Translate = (key: string, params?: Record<string, string | number>) => string;

/** One line of a bill's additions: what it is about and its text in the reader's language. */
export interface FactLine {
  kind: "high_consumption" | "minimum" | "fixed_charge" | "price_version" | BusinessLineKind;
  text: string;
  /** For the high-consumption line: whether the average is above the limit. */
  exceeded?: boolean;
}

/** The lines of a bill's additions (a business bill's: core/business_lines.ts) (report page and PDF); `money` formats cents. */
export function factLines(
  t: Translate,
  f: UnitBillDetails,
  money: (cents: number) => string,
): FactLine[] {
  const F = (k: string, p?: Record<string, string | number>) =>
    t(`reports.unit_report.facts.${k}`, p);
  const out: FactLine[] = [];
  const h = f.high_consumption;
  if (h) {
    const p = { average: h.average_kwh, months: h.months, limit: h.limit_kwh };
    out.push({
      kind: "high_consumption",
      text: F(h.exceeded ? "dac_over" : "dac_under", p),
      exceeded: h.exceeded,
    });
  }
  if (f.minimum_kwh !== undefined) {
    out.push({ kind: "minimum", text: F("minimum", { kwh: f.minimum_kwh }) });
  }
  if (f.fixed_charge) {
    out.push({ kind: "fixed_charge", text: F("fixed_charge", { amount: money(f.fixed_charge) }) });
  }
  if (f.price_versions && f.price_versions.length > 1) {
    for (const p of f.price_versions) {
      const version = p.applies_from ?? F("first_version");
      out.push({
        kind: "price_version",
        text: F("version_part", { from: p.from, to: p.to, days: p.days, version }),
      });
    }
  }
  if (f.business) out.push(...businessLines(t, f.business, money));
  return out;
}

/** The zone a bill was priced with (its snapshot), else `current`, else null. */
export function zoneOfBill(
  snapshot: ZoneSnapshot | null | undefined,
  current: Zone | null,
): Zone | null {
  return snapshot ?? current;
}

/** The periods of a year, oldest first. */
export function periodsOfYear(kind: PeriodKind, year: number): string[] {
  const out: string[] = [];
  for (let m = 1; m <= 12; m += kind === "monthly" ? 1 : 2) {
    out.push(kind === "monthly" ? monthlyPeriod(year, m) : bimonthlyPeriod(year, m));
  }
  return out;
}

/** Whether a period has not started, holds today, or is over. */
export function periodTiming(
  text: string,
  today: DateParts,
): { future: boolean; current: boolean; past: boolean } {
  const p = parsePeriod(text);
  const first = p.year * 12 + p.months[0];
  const last = p.year * 12 + p.months[p.months.length - 1];
  const now = today.year * 12 + today.month;
  return { future: first > now, current: first <= now && now <= last, past: last < now };
}

/**
 * The period choices of the station report, newest first: the 12 months up to this one, or
 * the bimonthly periods of this year and last year.
 */
export function stationPeriods(kind: PeriodKind, today: DateParts): string[] {
  if (kind === "bimonthly") {
    return [
      ...periodOptions("bimonthly", today.year),
      ...periodOptions("bimonthly", today.year - 1),
    ];
  }
  const out: string[] = [];
  for (let i = 0; i < 12; i++) {
    const m = today.month - i;
    out.push(monthlyPeriod(m < 1 ? today.year - 1 : today.year, ((m + 11) % 12) + 1));
  }
  return out;
}

/** The period holding today. */
export function currentPeriod(kind: PeriodKind, today: DateParts): string {
  return kind === "monthly"
    ? monthlyPeriod(today.year, today.month)
    : bimonthlyPeriod(today.year, today.month);
}

/** The city of a location (JSON with a city, or raw text), else 'No location'. */
export function cityOf(t: Translate, location: string): string {
  const raw = (location ?? "").trim();
  const city = parseLocation(raw).city;
  if (city) return city;
  if (raw && !raw.startsWith("{")) return raw;
  return t("reports.unit_report.no_location");
}
