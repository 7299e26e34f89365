/**
 * A sensor's meters over time (rules in core/meters.ts, keys in db/meters.ts): reading the
 * history, recording a replacement with the sensor's new serial in one commit (a sensor edit
 * that changes the serial replaces the meter at that instant), the admin's explicit
 * replacement with its instant and the counters around it, and what the sensor page lists.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { type DeviceView, sensorStationId, sensorTopicPrefix } from "../../core/devices.ts";
import {
  type MeterChange,
  type MeterPeriod,
  metersOf,
  replacementReadings,
  replaceMeter,
} from "../../core/meters.ts";
import { checkCounterReading, type MeterChangeInput } from "../../core/meter_inputs.ts";
import {
  getStationSensor,
  idBySerial,
  type StageAlso,
  type WriteResult,
} from "../../db/devices.ts";
import {
  listManualReadings,
  type ManualReading,
  meterHistoryEntry,
  restoreMeterHistory,
  stageMeterHistory,
} from "../../db/meters.ts";
import { notFound } from "../refusal.ts";
import { answer, fieldError, SENSOR_NOT_FOUND, TAKEN_KEYS } from "./_changes.ts";
import { updateFollowed } from "./broker_accounts.ts";
import {
  type MeteredSensor,
  readingRefusal,
  readingsAround,
  refuseTooOld,
  sensorMeters,
  writeReadings,
} from "./_meters.ts";

/** What a staged serial change wrote, to put it back if the change is undone. */
export interface MeterChangeTrack {
  written?: MeterPeriod[];
  before?: MeterPeriod[] | null;
}

/**
 * The staging of a sensor write that records a meter replacement when the serial changes:
 * at `change.at`, or at `now()` (after the open meter's start) for a plain edit.
 */
export function stageSerialChange(
  deps: Pick<Deps, "kv" | "now">,
  change: Omit<MeterChange, "serial" | "at"> & { at: number | null },
  track: MeterChangeTrack,
): StageAlso {
  return async (op, cur, next) => {
    if (cur.type !== "sensor" || cur.serial_number === next.serial_number) return;
    const entry = await meterHistoryEntry(deps.kv, cur.id);
    const meters = metersOf(entry.value, cur.serial_number);
    const open = meters[meters.length - 1];
    const at = change.at ?? Math.max(deps.now(), open.from + 1);
    const res = replaceMeter(meters, { ...change, serial: next.serial_number, at });
    if (!Array.isArray(res)) return { reason: "refused", key: res.key, field: res.field };
    stageMeterHistory(op, entry, cur.id, res);
    track.written = res;
    track.before = entry.value;
  };
}

/**
 * A sensor write with a staged serial change: when the write is undone afterwards (the broker
 * refused the new account, see `followBroker`), the history it wrote is put back too.
 */
export async function withMeterUndo(
  deps: Pick<Deps, "kv">,
  sensorId: number,
  track: MeterChangeTrack,
  work: Promise<WriteResult>,
): Promise<WriteResult> {
  try {
    return await work;
  } catch (e) {
    if (track.written) {
      await restoreMeterHistory(deps.kv, sensorId, track.written, track.before ?? null);
    }
    throw e;
  }
}

/** Locale key of a replacement before the meter's last manual reading. */
const BEFORE_READING = "meters.errors.replace_before_reading";

/**
 * Replaces the meter of sensor `sensorId` of station `stationId` (admin): the new serial
 * from `input.at` on, the old meter's last counter and the new one's first when read (kept
 * as readings of each meter, so each meter's energy runs up to and from the change). Refused
 * with a field error, changing nothing, when the serial is the current one or another
 * device's, the instant is in the future, not after the current meter's start or before its
 * last manual reading, or the old counter is below that meter's reading before the instant.
 */
export async function replaceSensorMeter(
  deps: Deps,
  actor: User,
  stationId: number,
  sensorId: number,
  input: MeterChangeInput,
): Promise<DeviceView> {
  const cur = await getStationSensor(deps.kv, stationId, sensorId);
  if (!cur) throw notFound(SENSOR_NOT_FOUND);
  const holder = await idBySerial(deps.kv, input.serial_number);
  if (holder !== null && holder !== sensorId) {
    throw fieldError("serial_number", TAKEN_KEYS.serial_number);
  }
  const meters = await sensorMeters(deps, cur);
  const open = meters[meters.length - 1];
  const change = { ...input, serial: input.serial_number };
  const refused = replaceMeter(meters, change);
  if (!Array.isArray(refused)) throw fieldError(refused.field, refused.key);
  const now = deps.now();
  const ahead = checkCounterReading({ at: input.at, kwh: 0 }, now, { prev: null, next: null });
  if (ahead) throw readingRefusal(ahead);
  if (input.last_kwh !== null || input.first_kwh !== null) refuseTooOld(deps, input.at);
  const later = await listManualReadings(deps.kv, sensorId, input.at);
  if (later.some((r) => r.serial === open.serial)) throw fieldError("at", BEFORE_READING);
  for (const [field, kwh] of [["last_kwh", input.last_kwh], ["first_kwh", input.first_kwh]]) {
    if (kwh === null) continue;
    const around = field === "last_kwh"
      ? await readingsAround(deps, open.serial, input.at - 1, open.from, input.at - 1)
      : { prev: null, next: null };
    const bad = checkCounterReading({ at: input.at, kwh: kwh as number }, now, around, {
      at: "at",
      kwh: field as string,
    });
    if (bad) throw readingRefusal(bad);
  }
  const samples = replacementReadings(open.serial, change);
  if (samples.length > 0) {
    await writeReadings(
      deps,
      samples.map((r) => ({ serial: r.serial, ts: r.ts, values: { total_energy_kwh: r.kwh } })),
    );
  }
  const track: MeterChangeTrack = {};
  const res = await withMeterUndo(
    deps,
    sensorId,
    track,
    updateFollowed(deps, sensorId, undefined, (d, station, pw) => {
      if (d.type !== "sensor" || d.parent_id !== stationId || !station) {
        return { reason: "not_found" };
      }
      return {
        ...d,
        ...pw,
        serial_number: input.serial_number,
        station_id: sensorStationId(station.station_id, input.serial_number),
        config: {
          ...d.config,
          mqtt: { ...d.config.mqtt, topic_prefix: sensorTopicPrefix(input.serial_number) },
        },
        updated_at: now,
      };
    }, stageSerialChange(deps, change, track)),
  );
  if (res.ok) {
    deps.log.log("info", "sensor meter replaced", { id: sensorId, at: input.at });
  }
  return answer(deps, actor, res, SENSOR_NOT_FOUND);
}

/** What the sensor page lists of its meters: the meters, newest first, and manual readings. */
interface MeterOverview {
  meters: MeterPeriod[];
  /** Manual readings, newest first (the latest {@link LISTED_READINGS}). */
  readings: ManualReading[];
}

/** How many manual readings the sensor page lists. */
const LISTED_READINGS = 50;

/** The meters and manual readings of a sensor, for its page. */
export async function meterOverview(deps: Deps, sensor: MeteredSensor): Promise<MeterOverview> {
  const meters = await sensorMeters(deps, sensor);
  const readings = await listManualReadings(deps.kv, sensor.id);
  return {
    meters: meters.slice().reverse(),
    readings: readings.slice(-LISTED_READINGS).reverse(),
  };
}
