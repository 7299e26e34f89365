/**
 * Meters over time (pure): which meter measured a unit when, and the reading segments that
 * follow from it. A sensor (the unit's metering point) keeps its history when its meter is
 * replaced: each meter's readings are its own series in the telemetry store (keyed by its
 * serial), and a unit's energy is the sum of each meter's own increase over the part of the
 * range it measured, so no delta ever crosses from one meter's counter to another's.
 */

/** A meter that measured a sensor's unit for a while. */
export interface MeterPeriod {
  /** The meter's serial number: the key of its readings in the telemetry store. */
  serial: string;
  /** When it started measuring (epoch ms); -Infinity for the sensor's first meter. */
  from: number;
  /** When it stopped (epoch ms, exclusive), or null while it measures. */
  to: number | null;
  /** Its counter (kWh) when it started, when recorded. */
  first_kwh: number | null;
  /** Its counter (kWh) when it stopped, when recorded. */
  last_kwh: number | null;
}

/** A part of a range whose readings are one meter's. */
export interface ReadingSegment {
  serial: string;
  from: number;
  to: number;
}

/** A time window [from, to) (epoch ms). */
export interface TimeWindow {
  from: number;
  to: number;
}

/** The history of a sensor that never had its meter replaced: its serial, since ever. */
export function implicitMeters(serial: string): MeterPeriod[] {
  return [{ serial, from: -Infinity, to: null, first_kwh: null, last_kwh: null }];
}

/**
 * The meters of a sensor whose serial is now `serial`: the stored history (null when none),
 * with its open meter named by the sensor's serial. The two agree whenever the serial was
 * changed by a sensor edit or a replacement (they are written in one commit); where they
 * do not, the serial the device reports under is the one its readings are kept by.
 */
export function metersOf(stored: readonly MeterPeriod[] | null, serial: string): MeterPeriod[] {
  if (!stored || stored.length === 0) return implicitMeters(serial);
  const out = stored.map((m) => ({ ...m }));
  const open = out[out.length - 1];
  if (open.to === null && open.serial !== serial) open.serial = serial;
  return out;
}

/** Sorted, merged windows (empty ones left out). */
function mergedWindows(windows: readonly TimeWindow[]): TimeWindow[] {
  const sorted = windows.filter((w) => w.to > w.from).map((w) => ({ ...w }))
    .sort((a, b) => a.from - b.from);
  const out: TimeWindow[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w.from <= last.to) last.to = Math.max(last.to, w.to);
    else out.push(w);
  }
  return out;
}

/**
 * The segments of [from, to) and which meter's readings cover each, in time order, cut to
 * `windows` when given (a part outside every window is left out). Segments are never empty.
 */
export function meterSegments(
  meters: readonly MeterPeriod[],
  from: number,
  to: number,
  windows?: readonly TimeWindow[],
): ReadingSegment[] {
  const cuts = windows ? mergedWindows(windows) : [{ from, to }];
  const out: ReadingSegment[] = [];
  for (const m of meters) {
    const a = Math.max(m.from, from);
    const b = Math.min(m.to ?? Infinity, to);
    for (const w of cuts) {
      const s = Math.max(a, w.from), e = Math.min(b, w.to);
      if (e > s) out.push({ serial: m.serial, from: s, to: e });
    }
  }
  return out.sort((x, y) => x.from - y.from);
}

/** The meter that measured at instant `at`, or null. */
export function meterAt(meters: readonly MeterPeriod[], at: number): MeterPeriod | null {
  return meters.find((m) => m.from <= at && (m.to === null || at < m.to)) ?? null;
}

/** A meter replacement: the new meter's serial, the instant, the counters around it. */
export interface MeterChange {
  serial: string;
  at: number;
  /** The old meter's counter when it was taken out (kWh), when read. */
  last_kwh: number | null;
  /** The new meter's counter when it was put in (kWh), when read. */
  first_kwh: number | null;
}

/** Why a replacement cannot be recorded: the field and the locale key. */
interface MeterChangeRefusal {
  field: "serial_number" | "at";
  key: string;
}

/** Locale keys of the refusals of {@link replaceMeter}. */
const METER_CHANGE_ERRORS = {
  sameSerial: "meters.errors.serial_same",
  beforeStart: "meters.errors.replace_before_start",
} as const;

/**
 * The history after the open meter is replaced by `change` at `change.at`: the open meter
 * ends then, with its last counter, and the new one starts, with its first. Refused when the
 * serial is the open meter's or the instant is not after the open meter's start.
 */
export function replaceMeter(
  meters: readonly MeterPeriod[],
  change: MeterChange,
): MeterPeriod[] | MeterChangeRefusal {
  const open = meters[meters.length - 1];
  if (open.serial === change.serial) {
    return { field: "serial_number", key: METER_CHANGE_ERRORS.sameSerial };
  }
  if (!(change.at > open.from)) return { field: "at", key: METER_CHANGE_ERRORS.beforeStart };
  return [
    ...meters.slice(0, -1),
    { ...open, to: change.at, last_kwh: change.last_kwh },
    {
      serial: change.serial,
      from: change.at,
      to: null,
      first_kwh: change.first_kwh,
      last_kwh: null,
    },
  ];
}

/**
 * The instants at which the recorded counters of a replacement are kept as readings: the
 * old meter's last at the millisecond before the change (its last reading of its own
 * segment), the new meter's first at the change (the starting point of its segment).
 */
export function replacementReadings(
  old: string,
  change: MeterChange,
): { serial: string; ts: number; kwh: number }[] {
  const out: { serial: string; ts: number; kwh: number }[] = [];
  if (change.last_kwh !== null) out.push({ serial: old, ts: change.at - 1, kwh: change.last_kwh });
  if (change.first_kwh !== null) {
    out.push({ serial: change.serial, ts: change.at, kwh: change.first_kwh });
  }
  return out;
}
