/**
 * Time-of-use bands of CFE's hourly business tariffs (GDMTH, issue 34): each instant falls in
 * one band, base, intermedia or punta, by the local hour, the kind of day (Monday to Friday,
 * Saturday, Sunday or federal holiday) and the season of the band schedule. Pure: instants
 * are read in the business time zone (a fixed offset; Mexico has no daylight saving time since
 * 2022, so a local hour is always the same UTC hour).
 *
 * A schedule's summer runs from the first Sunday of April to the Saturday before the last
 * Sunday of October; the rest of the year is its winter (CFE's wording for the central
 * regions). The hours of the one built-in schedule are those CFE publishes for the Región
 * Central; the stored tariff reference does not list the bands of other regions, so a zone
 * elsewhere should check them against CFE's GDMTH page.
 */
import { isMexicanHoliday } from "./holidays.ts";
import type { DateParts } from "./periods.ts";

/** The energy bands, cheapest first. */
export const BANDS = ["base", "intermedia", "punta"] as const;
/** One energy band. */
export type Band = typeof BANDS[number];

/** Kinds of day a schedule tells apart; a federal holiday is a Sunday. */
type DayKind = "weekday" | "saturday" | "sunday";

/** A run of hours `[from, to)` of a day in one band (hours 0–24). */
interface BandSpan {
  from: number;
  to: number;
  band: Band;
}

/** The bands of each kind of day of a season; the spans of a day cover 0–24 in order. */
type SeasonBands = Record<DayKind, readonly BandSpan[]>;

/** A band schedule: its id and the bands of each season. */
export interface BandSchedule {
  id: string;
  summer: SeasonBands;
  winter: SeasonBands;
}

/**
 * A day's spans from the hours its band changes at: each lasts until the next change, the last
 * until 24.
 */
const day = (...changes: [hour: number, band: Band][]): BandSpan[] =>
  changes.map(([from, band], i) => ({ from, to: changes[i + 1]?.[0] ?? 24, band }));

/** CFE GDMTH, Región Central. */
const CENTRAL: BandSchedule = {
  id: "cfe_central",
  summer: {
    weekday: day([0, "base"], [6, "intermedia"], [20, "punta"], [22, "intermedia"]),
    saturday: day([0, "base"], [7, "intermedia"]),
    sunday: day([0, "base"], [19, "intermedia"]),
  },
  winter: {
    weekday: day([0, "base"], [6, "intermedia"], [18, "punta"], [22, "intermedia"]),
    saturday: day([0, "base"], [8, "intermedia"], [19, "punta"], [21, "intermedia"]),
    sunday: day([0, "base"], [18, "intermedia"]),
  },
};

/** The built-in band schedules by id. */
export const BAND_SCHEDULES: Readonly<Record<string, BandSchedule>> = { [CENTRAL.id]: CENTRAL };

/** Ids of the built-in schedules (the zone form's choices). */
export const BAND_SCHEDULE_IDS = Object.keys(BAND_SCHEDULES);

/** The schedule of an id, or null for an unknown one. */
export function bandSchedule(id: string | undefined): BandSchedule | null {
  return id !== undefined && Object.hasOwn(BAND_SCHEDULES, id) ? BAND_SCHEDULES[id] : null;
}

const weekdayOf = (d: DateParts) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();

/** The day of the month of the first (or last) Sunday of a month. */
function sundayOf(year: number, month: number, which: "first" | "last"): number {
  if (which === "first") return 1 + (7 - weekdayOf({ year, month, day: 1 })) % 7;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return last - weekdayOf({ year, month, day: last });
}

/** Whether a day is in a schedule's summer: first Sunday of April to before the last of October. */
export function isBandSummer(d: DateParts): boolean {
  const key = d.month * 100 + d.day;
  const start = 400 + sundayOf(d.year, 4, "first");
  const end = 1000 + sundayOf(d.year, 10, "last");
  return key >= start && key < end;
}

/** The kind of a day: a federal holiday counts as a Sunday. */
function dayKind(d: DateParts): DayKind {
  const wd = weekdayOf(d);
  if (wd === 0 || isMexicanHoliday(d)) return "sunday";
  return wd === 6 ? "saturday" : "weekday";
}

/** The band of an instant (epoch ms) in the business time zone (`offset`: minutes east of UTC). */
export function bandAt(schedule: BandSchedule, ts: number, offset: number): Band {
  const local = new Date(ts + offset * 60_000);
  const day = {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
  };
  const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
  const spans = (isBandSummer(day) ? schedule.summer : schedule.winter)[dayKind(day)];
  return spans.find((s) => hour >= s.from && hour < s.to)?.band ?? "base";
}

/** kWh per band. */
export type BandEnergy = Record<Band, number>;

/** No energy in any band. */
export const noBandEnergy = (): BandEnergy => ({ base: 0, intermedia: 0, punta: 0 });

/**
 * Energy of a period per band from bucketed energy (kWh per bucket, each at its start): a
 * bucket counts in the band of its start, so buckets of 15 minutes or less (which never
 * straddle a band change, bands changing on the hour) are split exactly. Sums to the Wh.
 */
export function energyByBand(
  schedule: BandSchedule,
  points: readonly { ts: number; value: number }[],
  offset: number,
): BandEnergy {
  const out = noBandEnergy();
  for (const p of points) out[bandAt(schedule, p.ts, offset)] += p.value;
  for (const b of BANDS) out[b] = Math.round(out[b] * 1000) / 1000;
  return out;
}
