/**
 * Sensors' meters over time in Deno KV: which meters measured a sensor's unit, and the
 * readings an admin entered by hand (rules in core/meters.ts; the readings themselves are
 * also samples of the telemetry store, where energy is counted).
 *
 * Key layout:
 * - `["meter_history", sensorId]` → {@link MeterPeriod}[]: the meters that measured the
 *   sensor, oldest first, the last one open (`to` null); absent while the sensor has had one
 *   meter (its serial, since ever). Written with the sensor's record, in the same commit, when
 *   its serial changes.
 * - `["meter_readings", sensorId, at]` → {@link ManualReading}: a reading entered by hand at
 *   instant `at` (epoch ms), one per sensor and instant.
 */
import type { MeterPeriod } from "../core/meters.ts";

/** A meter reading entered by hand (a meter without network, or a check). */
export interface ManualReading {
  /** The instant of the reading (epoch ms). */
  at: number;
  /** The meter's index, kWh. */
  kwh: number;
  note: string;
  /** The admin who entered it, or null (a script). */
  by: number | null;
  created_at: number;
  /** The meter it was read from (the serial its sample is kept under). */
  serial: string;
}

const historyKey = (sensorId: number) => ["meter_history", sensorId];
const readingKey = (sensorId: number, at: number) => ["meter_readings", sensorId, at];

/** A sensor's stored meter history (null value when it never had its meter replaced). */
export function meterHistoryEntry(
  kv: Deno.Kv,
  sensorId: number,
): Promise<Deno.KvEntryMaybe<MeterPeriod[]>> {
  return kv.get<MeterPeriod[]>(historyKey(sensorId));
}

/** Stages writing a sensor's meter history in `op`, checked against the `entry` it replaces. */
export function stageMeterHistory(
  op: Deno.AtomicOperation,
  entry: Deno.KvEntryMaybe<MeterPeriod[]>,
  sensorId: number,
  meters: readonly MeterPeriod[],
): void {
  op.check(entry).set(historyKey(sensorId), meters);
}

/**
 * Puts back the history a sensor had before a change that was undone (`written` is what the
 * change stored): only while the stored history is still that one. Answers whether it did.
 */
export async function restoreMeterHistory(
  kv: Deno.Kv,
  sensorId: number,
  written: readonly MeterPeriod[],
  before: readonly MeterPeriod[] | null,
): Promise<boolean> {
  const cur = await meterHistoryEntry(kv, sensorId);
  if (JSON.stringify(cur.value) !== JSON.stringify(written)) return false;
  const op = kv.atomic().check(cur);
  if (before) op.set(historyKey(sensorId), before);
  else op.delete(historyKey(sensorId));
  return (await op.commit()).ok;
}

/** The manual reading of a sensor at instant `at`, or null. */
export async function getManualReading(
  kv: Deno.Kv,
  sensorId: number,
  at: number,
): Promise<ManualReading | null> {
  return (await kv.get<ManualReading>(readingKey(sensorId, at))).value;
}

/** Stores a manual reading (one per sensor and instant: a second one at `at` replaces it). */
export async function putManualReading(
  kv: Deno.Kv,
  sensorId: number,
  reading: ManualReading,
): Promise<void> {
  await kv.set(readingKey(sensorId, reading.at), reading);
}

/** A sensor's manual readings with `at` in [from, to), oldest first. */
export async function listManualReadings(
  kv: Deno.Kv,
  sensorId: number,
  from = 0,
  to = Number.MAX_SAFE_INTEGER,
): Promise<ManualReading[]> {
  const out: ManualReading[] = [];
  if (!(to > from)) return out;
  const start = readingKey(sensorId, Math.max(0, from));
  const end = readingKey(sensorId, to);
  for await (const e of kv.list<ManualReading>({ start, end })) out.push(e.value);
  return out;
}
