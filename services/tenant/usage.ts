/**
 * What a tenant's meters measured: current power and power factor, phase powers, today's,
 * this month's and last month's energy, and the chart series (24 hourly points of power from
 * 15-minute averages in kW, 7 days and 6 months of energy, the average use per hour of day).
 * A failed read is not shown as zeros: it rejects (a `TelemetryUnavailableError`), and the page
 * or API says the data is unavailable (issue 25 overrides spec 001 section 8 there). The reads
 * of a figure or series run together ({@link READS_IN_FLIGHT} at a time), not one after another.
 */
import type { Deps } from "../deps.ts";
import type { TenantUnit } from "./units.ts";
import { clockOf } from "../platform/clock.ts";
import { daysInMonth } from "../../core/periods.ts";
import { type TimeWindow, type UnitMeters, unitMeters } from "../devices/meter_usage.ts";
import { inFlight } from "../../core/in_flight.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const round2 = (x: number) => Math.round(x * 100) / 100;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Store reads of one figure or series at the same time (an owner's chart may sum many meters). */
export const READS_IN_FLIGHT = 8;

/**
 * What the readings need of a unit: its sensor's id (the meters it had over time), its
 * current meter's serial number and status.
 */
type Meter = Pick<TenantUnit, "id" | "serial_number" | "status"> & {
  /** A tenant's tenancies of the unit: only readings within them are read (issue 24). */
  windows?: TimeWindow[];
};

/** A chart point: its label (local time or date) and value. */
export interface SeriesPoint {
  label: string;
  value: number;
}

/** The live values of a unit. */
export interface UnitNow {
  /** kW. */
  power: number;
  /** Power factor 0-1, or null when the meter never sent one. */
  powerFactor: number | null;
  /** Watts of phases A, B, C. */
  phasePowers: number[];
  /** Epoch ms of the latest reading, or null. */
  readingAt: number | null;
}

/** Energy of a unit this month and around it. */
interface UnitEnergy {
  todayKwh: number;
  monthKwh: number;
  /** This month's kWh to 3 decimals, as bills read energy. */
  monthKwhExact: number;
  /** Last month over the same number of days as this month so far. */
  lastMonthSameSpanKwh: number;
  /** Days of this month elapsed (fractional) and the month's length. */
  elapsedDays: number;
  daysInMonth: number;
  /** `YYYY-MM` of this month. */
  month: string;
}

/** The latest readings of a unit (zeros when none). */
export async function unitNow(deps: Deps, unit: Meter): Promise<UnitNow> {
  const latest = await deps.telemetry.latest(unit.serial_number);
  if (!latest) return { power: 0, powerFactor: null, phasePowers: [0, 0, 0], readingAt: null };
  const v = latest.values;
  const online = unit.status === "online";
  return {
    power: online ? round2((v.total_power ?? 0) / 1000) : 0,
    powerFactor: typeof v.total_pf === "number" ? v.total_pf : null,
    phasePowers: [v.phase_a_power ?? 0, v.phase_b_power ?? 0, v.phase_c_power ?? 0],
    readingAt: latest.ts,
  };
}

/** A unit's meters, or `unit` itself to read them on first use. */
type Metered = Meter | UnitMeters;

async function delta(deps: Deps, unit: Metered, from: number, to: number): Promise<number> {
  if (to <= from) return 0;
  const meters = "counterDelta" in unit ? unit : await unitMeters(deps, unit, unit.windows);
  return await meters.counterDelta("total_energy_kwh", from, to);
}

/** The reads of a unit across its meters (a failing store is refused: data unavailable). */
function metersOf(deps: Deps, unit: Meter): Promise<UnitMeters> {
  return unitMeters(deps, unit, unit.windows);
}

/** Energy of `[from, to)` for a unit in kWh (3 decimals, as bills read it), across its meters. */
export async function energyBetween(
  deps: Deps,
  unit: Metered,
  from: number,
  to: number,
): Promise<number> {
  return round3(await delta(deps, unit, from, Math.min(to, deps.now())));
}

/** Today's, this month's and last month's (same span) energy of a unit. */
export async function unitEnergy(deps: Deps, unit: Meter): Promise<UnitEnergy> {
  const clock = clockOf(deps);
  const now = clock.now();
  const p = clock.localParts(now);
  const month = clock.monthBounds(p.year, p.month);
  const prev = clock.monthBounds(
    p.month === 1 ? p.year - 1 : p.year,
    p.month === 1 ? 12 : p.month - 1,
  );
  const span = now - month.from;
  const meters = (await metersOf(deps, unit)) ?? unit;
  const [monthDelta, todayDelta, lastMonthDelta] = await Promise.all([
    delta(deps, meters, month.from, now),
    delta(deps, meters, clock.dayStart(clock.localDate(now)), now),
    delta(deps, meters, prev.from, Math.min(prev.from + span, prev.to)),
  ]);
  const monthExact = round3(monthDelta);
  return {
    todayKwh: round2(todayDelta),
    monthKwh: round2(monthExact),
    monthKwhExact: monthExact,
    lastMonthSameSpanKwh: round2(lastMonthDelta),
    elapsedDays: span / DAY,
    daysInMonth: daysInMonth(p.year, p.month),
    month: `${p.year}-${String(p.month).padStart(2, "0")}`,
  };
}

const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;

/**
 * The last 24 hours of power in kW: 24 hourly points, each the mean of the hour's 15-minute
 * averages (watts / 1000), summed over the units.
 */
export async function powerSeries(deps: Deps, units: readonly Meter[]): Promise<SeriesPoint[]> {
  const clock = clockOf(deps);
  const end = Math.floor(clock.now() / HOUR) * HOUR + HOUR;
  const from = end - DAY;
  const sums = Array(24).fill(0);
  const perUnit = await inFlight(
    units,
    READS_IN_FLIGHT,
    async (u) =>
      await (await unitMeters(deps, u, u.windows)).series("total_power", from, end, "15m", "avg"),
  );
  for (const points of perUnit) {
    const byHour = new Map<number, number[]>();
    for (const p of points) {
      const i = Math.floor((p.ts - from) / HOUR);
      if (i < 0 || i > 23) continue;
      byHour.set(i, [...(byHour.get(i) ?? []), p.value]);
    }
    for (const [i, vs] of byHour) sums[i] += vs.reduce((s, v) => s + v, 0) / vs.length;
  }
  return sums.map((w, i) => ({
    label: hh(clock.localHour(from + i * HOUR)),
    value: round2(w / 1000),
  }));
}

/** Energy of each of the last 7 local days (today last), summed over the units. */
export async function dailySeries(deps: Deps, units: readonly Meter[]): Promise<SeriesPoint[]> {
  const clock = clockOf(deps);
  const today = clock.todayStart();
  const days = [6, 5, 4, 3, 2, 1, 0].map((i) => today - i * DAY);
  const sums = await energySums(deps, units, days.map((from) => ({ from, to: from + DAY })));
  return days.map((from, i) => ({ label: clock.localDate(from).slice(5), value: round2(sums[i]) }));
}

/**
 * The energy of each window summed over the units (in the units' order, as one after another
 * would add them): every unit's meters read once, every window's reads together.
 */
async function energySums(
  deps: Deps,
  units: readonly Meter[],
  windows: readonly { from: number; to: number }[],
): Promise<number[]> {
  const meters = await inFlight(
    units,
    READS_IN_FLIGHT,
    async (u) => (await metersOf(deps, u)) ?? u,
  );
  const reads = windows.flatMap((w) => meters.map((m) => ({ m, ...w })));
  const kwh = await inFlight(reads, READS_IN_FLIGHT, (r) => energyBetween(deps, r.m, r.from, r.to));
  return windows.map((_, i) => {
    let sum = 0;
    for (let j = 0; j < meters.length; j++) sum += kwh[i * meters.length + j];
    return sum;
  });
}

/** Energy of each of the last `n` local months (this month last), summed over the units. */
export async function monthlySeries(
  deps: Deps,
  units: readonly Meter[],
  n = 6,
): Promise<SeriesPoint[]> {
  const clock = clockOf(deps);
  const p = clock.today();
  const months = Array.from({ length: n }, (_, k) => {
    const i = n - 1 - k;
    return new Date(Date.UTC(p.year, p.month - 1 - i, 1));
  });
  const bounds = months.map((d) => clock.monthBounds(d.getUTCFullYear(), d.getUTCMonth() + 1));
  const sums = await energySums(deps, units, bounds);
  return months.map((d, i) => ({ label: d.toISOString().slice(0, 7), value: round2(sums[i]) }));
}

/** The charts of the dashboards: 24 hours of power, the last 7 days, the last 6 months. */
type DashboardSeries = "power" | "daily" | "monthly";

const DASHBOARD_SERIES = { power: powerSeries, daily: dailySeries, monthly: monthlySeries };

/** The points of a dashboard chart over `meters`; none without meters. */
export async function dashboardSeries(
  deps: Deps,
  meters: readonly Meter[],
  series: DashboardSeries,
): Promise<SeriesPoint[]> {
  return meters.length === 0 ? [] : await DASHBOARD_SERIES[series](deps, meters);
}

/**
 * The average energy per hour of the local day over the last 7 days (24 values, kWh): each
 * hour's increases summed over the days that had readings, divided by those days.
 */
export async function hourlyAverage(deps: Deps, unit: Meter): Promise<number[]> {
  const clock = clockOf(deps);
  const end = Math.floor(clock.now() / HOUR) * HOUR;
  const points = await (await unitMeters(deps, unit, unit.windows)).counterSeries(
    "total_energy_kwh",
    end - 7 * DAY,
    end,
    "1h",
  );
  const sum = Array(24).fill(0);
  const count = Array(24).fill(0);
  for (const p of points) {
    const h = clock.localHour(p.ts);
    sum[h] += p.value;
    count[h] += 1;
  }
  return sum.map((s, h) => (count[h] ? round3(s / count[h]) : 0));
}
