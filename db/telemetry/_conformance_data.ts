/**
 * Data and checks of the telemetry conformance suite (`conformance.ts`): a realistic day of
 * meter data, the expected counter series by the reference rule of core/energy.ts, and
 * comparisons of values and points up to rounding.
 */
import assert from "node:assert/strict";
import { counterDelta as referenceDelta, type CounterReading } from "../../core/energy.ts";
import { bucketFloor, bucketNext } from "./_buckets.ts";
import type { Bucket, Point, Sample } from "./mod.ts";

/** A second, minute, hour and day in milliseconds. */
export const S = 1_000, MIN = 60_000, H = 3_600_000, DAY = 86_400_000;
/** The suite's reference day: a Sunday in March 2024. */
export const D = Date.UTC(2024, 2, 10);

/**
 * A realistic stretch of meter data from `start`: power frames every 10 s (phase a only
 * partially), energy frames every 30 s (at +5 s) with a load curve, one meter reset and
 * some jitter. Returns the samples and the energy readings they contain.
 */
export function denseDay(
  serial: string,
  start: number,
  length: number,
): { samples: Sample[]; energy: CounterReading[] } {
  const samples: Sample[] = [];
  const energy: CounterReading[] = [];
  let kwh = 1234.5;
  for (let ts = start; ts < start + length; ts += 10 * S) {
    const hour = ((ts - Date.UTC(2024, 0, 1)) / H) % 24;
    const power = 300 + 1200 * Math.max(0, Math.sin(((hour - 6) / 24) * 2 * Math.PI)) +
      (ts / S % 7) * 3;
    const values: Sample["values"] = { total_power: power };
    if ((ts / S) % 20 === 0) values.phase_a_voltage = 228 + (ts / S % 5);
    samples.push({ serial, ts, values });
    if ((ts / S) % 30 === 0) {
      kwh += (power * 30) / 3_600_000;
      if (ts === start + Math.floor(length / 2 / 30_000) * 30_000) kwh = 0.002; // reset
      const jitter = (ts / S) % 330 === 0 ? -0.003 : 0;
      energy.push({ ts: ts + 5 * S, value: kwh + jitter });
      samples.push({ serial, ts: ts + 5 * S, values: { total_energy_kwh: kwh + jitter } });
    }
  }
  return { samples, energy };
}

/** The expected counter series of readings over whole buckets in [from, to). */
export function referenceSeries(
  readings: CounterReading[],
  from: number,
  to: number,
  bucket: Bucket,
): Point[] {
  const out: Point[] = [];
  for (let s = bucketFloor(bucket, from); s < to; s = bucketNext(bucket, s)) {
    const e = bucketNext(bucket, s);
    if (readings.some((r) => r.ts >= s && r.ts < e)) {
      out.push({ ts: s, value: referenceDelta(readings, s, e) });
    }
  }
  return out;
}

/** Asserts `actual` equals `expected` up to rounding. */
export function assertClose(actual: number, expected: number, message = "value"): void {
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${message}: expected ${expected}, got ${actual}`,
  );
}

/** Asserts the same bucket starts and values up to rounding. */
export function assertPoints(actual: Point[], expected: Point[], message = "points"): void {
  assert.deepEqual(actual.map((p) => p.ts), expected.map((p) => p.ts), `${message}: bucket starts`);
  actual.forEach((p, i) =>
    assertClose(p.value, expected[i].value, `${message} at ${new Date(p.ts).toISOString()}`)
  );
}
