/**
 * Meter readings entered by hand (a meter without network, or a check): validated against the
 * clock and the same meter's readings around them, kept in KV for the list, and written to the
 * telemetry store as a sample of that meter, so that energy figures and charts count them
 * between real readings like any other reading.
 */
import { meterAt, type MeterPeriod } from "../../core/meters.ts";
import { checkCounterReading } from "../../core/meter_inputs.ts";
import { getDevice } from "../../db/devices.ts";
import { getManualReading, type ManualReading, putManualReading } from "../../db/meters.ts";
import { notFound } from "../refusal.ts";
import { SENSOR_NOT_FOUND } from "./_changes.ts";
import {
  type ReadingDeps,
  readingRefusal,
  readingsAround,
  refuseTooOld,
  sensorMeters,
  writeReadings,
} from "./_meters.ts";

const KEY = "total_energy_kwh";

/** The meter that measured the sensor at `at` and where its segment ends (now when open). */
function segmentOf(meters: MeterPeriod[], at: number, now: number) {
  const meter = meterAt(meters, at);
  return meter ? { meter, hi: meter.to ?? now + 1 } : null;
}

/**
 * Records a reading entered by hand: the meter's index `kwh` at instant `at`. Refused (with a
 * field error) when kWh is negative or not a number, `at` is in the future or older than the
 * store keeps raw readings, or the index is below the meter's reading before it or above the
 * one after it; a refusal changes nothing. The reading is written to the telemetry store as a
 * sample of the meter that measured at `at` and made durable, then listed in KV. Idempotent
 * on (sensor, at): a second reading at the same instant replaces the first.
 */
export async function recordManualReading(
  deps: ReadingDeps,
  sensorId: number,
  input: { at: number; kwh: number; note: string; by: number | null },
): Promise<ManualReading> {
  const sensor = await getDevice(deps.kv, sensorId);
  if (!sensor || sensor.type !== "sensor") throw notFound(SENSOR_NOT_FOUND);
  const now = deps.now();
  const at = Math.round(input.at);
  const basic = checkCounterReading({ at, kwh: input.kwh }, now, { prev: null, next: null });
  if (basic) throw readingRefusal(basic);
  refuseTooOld(deps, at);
  const meters = await sensorMeters(deps, sensor);
  const seg = segmentOf(meters, at, now);
  if (!seg) throw readingRefusal({ field: "at", key: "meters.errors.at_invalid" });
  const note = input.note.trim();
  const had = await getManualReading(deps.kv, sensorId, at);
  if (!(had && had.kwh === input.kwh && had.serial === seg.meter.serial)) {
    const around = await readingsAround(deps, seg.meter.serial, at, seg.meter.from, seg.hi);
    const refused = checkCounterReading({ at, kwh: input.kwh }, now, around);
    if (refused) throw readingRefusal(refused);
  }
  const reading: ManualReading = {
    at,
    kwh: input.kwh,
    note,
    by: input.by,
    created_at: had?.created_at ?? now,
    serial: seg.meter.serial,
  };
  await writeReadings(deps, [{ serial: reading.serial, ts: at, values: { [KEY]: input.kwh } }]);
  await putManualReading(deps.kv, sensorId, reading);
  return reading;
}
