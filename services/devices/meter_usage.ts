/**
 * A unit's readings across its meters (rules in core/meters.ts): the meter serials covering a
 * range, the unit's energy summed over them (no delta from one meter's counter to another's),
 * and series read one query per meter segment (most sensors have one meter, so one query).
 * Manual readings are samples of their meter, so every figure here counts them.
 */
import type { Deps } from "../deps.ts";
import type { MeasurementKey } from "../../core/devices.ts";
import { meterSegments, type ReadingSegment, type TimeWindow } from "../../core/meters.ts";
import { listManualReadings } from "../../db/meters.ts";
import { type MeterDeps, type MeteredSensor, sensorMeters } from "./_meters.ts";
import {
  type Aggregate,
  type Bucket,
  type CounterUsage,
  counterUsageOf,
  type Point,
} from "../../db/telemetry/mod.ts";

export { recordManualReading } from "./meter_readings.ts";
export { type MeteredSensor } from "./_meters.ts";
export type { TimeWindow } from "../../core/meters.ts";

/** A unit's energy over a range: kWh, the readings in it, how many were entered by hand. */
interface UnitMeterUsage extends CounterUsage {
  /** Manual readings with their instant in the range. */
  manual: number;
}

/**
 * The meter serials covering [from, to) for `sensor`, in time order, cut to `windows` when
 * given (e.g. a tenant's tenancies, so that a tenant reads only their own).
 */
export async function readingSegments(
  deps: Pick<Deps, "kv">,
  sensor: MeteredSensor,
  from: number,
  to: number,
  windows?: TimeWindow[],
): Promise<ReadingSegment[]> {
  return meterSegments(await sensorMeters(deps, sensor), from, to, windows);
}

/**
 * The energy (kWh) of the sensor's unit over [from, to): each meter's own increase over its
 * segment, summed; `readings` as the store's counter usage (0: nothing at all in the range),
 * `manual` the manual readings in the range.
 */
export async function unitMeterUsage(
  deps: MeterDeps,
  sensor: MeteredSensor,
  from: number,
  to: number,
): Promise<UnitMeterUsage> {
  if (!(to > from)) return { delta: 0, readings: 0, manual: 0 };
  const meters = await unitMeters(deps, sensor);
  const usage = await meters.counterUsage("total_energy_kwh", from, to);
  const manual = (await listManualReadings(deps.kv, sensor.id, from, to)).length;
  return { ...usage, manual };
}

/** The reads of one unit across its meters, with its history read once. */
export interface UnitMeters {
  /** The segments of [from, to) (cut to the reader's windows). */
  segments(from: number, to: number): ReadingSegment[];
  /** A counter's energy over [from, to), summed over the meters. */
  counterUsage(key: MeasurementKey, from: number, to: number): Promise<CounterUsage>;
  /** The same energy alone. */
  counterDelta(key: MeasurementKey, from: number, to: number): Promise<number>;
  /** A bucketed series; a bucket two meters share combines their points (see below). */
  series(
    key: MeasurementKey,
    from: number,
    to: number,
    bucket: Bucket,
    agg: Aggregate,
  ): Promise<Point[]>;
  /** Per-bucket counter increases; a bucket two meters share has the sum of both. */
  counterSeries(key: MeasurementKey, from: number, to: number, bucket: Bucket): Promise<Point[]>;
}

/** One bucket's points of two meters as one: by the aggregate, the later for `last`. */
function combine(a: number, b: number, agg: Aggregate): number {
  if (agg === "max") return Math.max(a, b);
  if (agg === "min") return Math.min(a, b);
  if (agg === "avg") return (a + b) / 2;
  return b;
}

/**
 * Points of consecutive segments as one series. The store answers whole buckets, so two
 * segments of one meter that share a bucket answer it twice: it is taken once. A bucket two
 * meters share (a replacement inside it) holds the points of both, combined by `join`.
 */
function joinPoints(
  parts: { serial: string; points: Point[] }[],
  join: (a: number, b: number) => number,
): Point[] {
  if (parts.length === 1) return parts[0].points;
  const perMeter = new Map<string, Map<number, number>>();
  for (const { serial, points } of parts) {
    const seen = perMeter.get(serial) ?? new Map<number, number>();
    perMeter.set(serial, seen);
    for (const p of points) if (!seen.has(p.ts)) seen.set(p.ts, p.value);
  }
  const byTs = new Map<number, number>();
  for (const seen of perMeter.values()) {
    for (const [ts, value] of seen) {
      const had = byTs.get(ts);
      byTs.set(ts, had === undefined ? value : join(had, value));
    }
  }
  return [...byTs].sort((x, y) => x[0] - y[0]).map(([ts, value]) => ({ ts, value }));
}

/**
 * The reads of `sensor`'s unit across its meters, limited to `windows` when given. The
 * history is read once here, so a chart of many spans reads it once.
 */
export async function unitMeters(
  deps: MeterDeps,
  sensor: MeteredSensor,
  windows?: TimeWindow[],
): Promise<UnitMeters> {
  const meters = await sensorMeters(deps, sensor);
  const store = deps.telemetry;
  const segments = (from: number, to: number) =>
    to > from ? meterSegments(meters, from, to, windows) : [];
  const counterUsage = async (key: MeasurementKey, from: number, to: number) => {
    let delta = 0, readings = 0;
    for (const s of segments(from, to)) {
      const u = await counterUsageOf(store, s.serial, key, s.from, s.to);
      delta += u.delta;
      readings += u.readings;
    }
    return { delta, readings };
  };
  return {
    segments,
    counterUsage,
    async counterDelta(key, from, to) {
      let total = 0;
      for (const s of segments(from, to)) {
        total += await store.counterDelta(s.serial, key, s.from, s.to);
      }
      return total;
    },
    async series(key, from, to, bucket, agg) {
      const parts = [];
      for (const s of segments(from, to)) {
        parts.push({
          serial: s.serial,
          points: await store.series(s.serial, key, s.from, s.to, bucket, agg),
        });
      }
      return parts.length === 0 ? [] : joinPoints(parts, (a, b) => combine(a, b, agg));
    },
    async counterSeries(key, from, to, bucket) {
      const parts = [];
      for (const s of segments(from, to)) {
        parts.push({
          serial: s.serial,
          points: await store.counterSeries(s.serial, key, s.from, s.to, bucket),
        });
      }
      return parts.length === 0 ? [] : joinPoints(parts, (a, b) => a + b);
    },
  };
}
