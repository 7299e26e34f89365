/**
 * What the meter use cases share: the sensor as its readings need it, its meters, the
 * readings of a meter around an instant, and the refusals of a typed counter reading.
 */
import { readingsWritten } from "../../db/readings_revision.ts";
import type { Deps } from "../deps.ts";
import { type MeterPeriod, metersOf } from "../../core/meters.ts";
import type { ReadingRefusal } from "../../core/meter_inputs.ts";
import { meterHistoryEntry } from "../../db/meters.ts";
import { type Bucket, bucketCeil, bucketFloor } from "../../db/telemetry/mod.ts";
import { Refusal, unavailable } from "../refusal.ts";
import type { Sample } from "../../db/telemetry/mod.ts";

/** What the readings need: KV (the meter history) and the telemetry store. */
export type MeterDeps = Pick<Deps, "kv" | "telemetry">;

/** What the reading rules need. */
export type ReadingDeps = MeterDeps & Pick<Deps, "now" | "config" | "log">;

/** Locale key of a store that did not take a reading. */
const STORE_UNAVAILABLE = "meters.errors.store_unavailable";

/**
 * Writes counter readings typed by hand to the telemetry store and waits until they are
 * durable and visible; refused as unavailable (nothing else written yet) when it fails.
 */
export async function writeReadings(deps: ReadingDeps, samples: Sample[]): Promise<void> {
  try {
    deps.telemetry.write(samples);
    await deps.telemetry.flush();
  } catch (e) {
    deps.log.log("error", "manual readings not written", { error: String(e) });
    throw unavailable(STORE_UNAVAILABLE);
  }
  // Pages kept by their meters' newest reading would miss readings of the past.
  await readingsWritten(deps.kv);
}

/** A sensor as its readings need it: its id (history) and its serial (its current meter). */
export interface MeteredSensor {
  id: number;
  serial_number: string;
}

/** The meters that measured `sensor`, oldest first (one, since ever, until it is replaced). */
export async function sensorMeters(
  deps: Pick<Deps, "kv">,
  sensor: MeteredSensor,
): Promise<MeterPeriod[]> {
  return metersOf((await meterHistoryEntry(deps.kv, sensor.id)).value, sensor.serial_number);
}

const DAY = 86_400_000;
const KEY = "total_energy_kwh";

/** Locale key of a reading older than the store keeps raw readings. */
const TOO_OLD = "meters.errors.at_too_old";

/** A refusal of one field of a reading, worded with the kWh it names. */
export function readingRefusal(r: ReadingRefusal): Refusal {
  const params: Record<string, string> = r.kwh === undefined
    ? {}
    : { kwh: String(Math.round(r.kwh * 1000) / 1000) };
  return new Refusal("invalid", r.key, { [r.field]: r.key }, undefined, params);
}

/**
 * Refuses an instant older than the store's raw retention: a late sample past it can no
 * longer be merged into its buckets (the SQLite store drops it).
 */
export function refuseTooOld(deps: ReadingDeps, at: number, field = "at"): void {
  const days = deps.config.telemetry.rawRetentionDays;
  if (at < deps.now() - days * DAY) {
    throw new Refusal("invalid", TOO_OLD, { [field]: TOO_OLD }, undefined, { days });
  }
}

/** The stretches before and after an instant, finest first: each (bucket, from, to). */
type Steps = [Bucket, number, number][];

/**
 * The last reading of a counter before `at` (from `lo` on) and the first after it (before
 * `hi`), as far as the store's buckets tell: bucketed series read from the 15-minute bucket
 * next to `at` outwards (a few small reads). Readings inside `at`'s own 15 minutes are not
 * seen; null where there is none.
 */
export async function readingsAround(
  deps: MeterDeps,
  serial: string,
  at: number,
  lo: number,
  hi: number,
): Promise<{ prev: number | null; next: number | null }> {
  const store = deps.telemetry;
  const latest = await store.latest(serial);
  const last = latest?.values[KEY];
  if (latest && latest.ts < at && last !== undefined && latest.ts >= lo) {
    return { prev: last, next: null };
  }
  const start = Math.max(lo, 0);
  const b15 = bucketFloor("15m", at), bH = bucketFloor("1h", at);
  const bD = bucketFloor("1d", at), bM = bucketFloor("1M", at);
  const before: Steps = [["15m", bH, b15], ["1h", bD, bH], ["1d", bM, bD], ["1M", 0, bM]];
  const a15 = bucketCeil("15m", at + 1), aH = bucketCeil("1h", a15);
  const aD = bucketCeil("1d", aH), aM = bucketCeil("1M", aD);
  const after: Steps = [["15m", a15, aH], ["1h", aH, aD], ["1d", aD, aM], ["1M", aM, hi]];
  let prev: number | null = null, next: number | null = null;
  for (const [bucket, from, to] of before) {
    const f = Math.max(from, start);
    if (!(to > f)) continue;
    const points = await store.series(serial, KEY, f, to, bucket, "last");
    if (points.length) {
      prev = points[points.length - 1].value;
      break;
    }
  }
  for (const [bucket, from, to] of after) {
    const t = Math.min(to, hi);
    if (!(t > from)) continue;
    const points = await store.series(serial, KEY, from, t, bucket, "min");
    if (points.length) {
      next = points[0].value;
      break;
    }
  }
  return { prev, next };
}
