/**
 * The pure view model shared by the report pages and the PDF reports (spec 001 sections 3, 4
 * and 5): the lines of the additions a unit bill keeps, the zone it was priced with, the report
 * status of a period row, the periods of a year and their timing, period labels and the city of
 * a station.
 */
import type { Zone } from "../../core/zone.ts";
import type { UnitBillDetails, ZoneSnapshot } from "../../core/bill_details.ts";
import { parseLocation } from "../../core/device_rules.ts";
import {
  bimonthlyPeriod,
  type DateParts,
  monthlyPeriod,
  parsePeriod,
  type PeriodKind,
  periodLabel,
} from "../../core/periods.ts";
import type { Translate } from "../platform/i18n.ts";

/** One line of a bill's additions: what it is about and its text in the reader's language. */
export interface FactLine {
  kind: "high_consumption" | "minimum" | "fixed_charge" | "price_version";
  text: string;
  /** For the high-consumption line: whether the average is above the limit. */
  exceeded?: boolean;
}

/** The lines of a bill's additions (report page and PDF); `money` formats cents. */
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
  return out;
}

/** The zone a bill was priced with (its snapshot), else `current`, else null. */
export function zoneOfBill(
  snapshot: ZoneSnapshot | null | undefined,
  current: Zone | null,
): Zone | null {
  return snapshot ?? current;
}

export { type ReportStatus, reportStatus } from "../../core/bill.ts";

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

/** A period worded in the language of `t` (`March 2026`, `Mar-Apr 2026`); the text if malformed. */
export const periodName = periodLabel;

/** The city of a location (JSON with a city, or raw text), else 'No location'. */
export function cityOf(t: Translate, location: string): string {
  const raw = (location ?? "").trim();
  const city = parseLocation(raw).city;
  if (city) return city;
  if (raw && !raw.startsWith("{")) return raw;
  return t("reports.unit_report.no_location");
}
