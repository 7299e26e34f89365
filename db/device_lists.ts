/**
 * Reading the station rows, the counts kept with the writes and the indexes of many devices at
 * once (the key layout is written at the top of `devices.ts`), and building the rows and counts
 * of a store older than them (once per store).
 */
import {
  counted,
  countKey,
  countsOf,
  deviceKey,
  INDEX_VERSION,
  META_KEY,
  REVISION_KEY,
  rowKey,
  stationSummary,
  zoneCountKey,
  zoneOf,
} from "./_device_keys.ts";
import type { DeviceCounts, StationSummary, StoredDevice } from "../core/devices.ts";
import { listValues, listValuesSlice } from "./kv.ts";
import { oncePerStore } from "./_once_per_store.ts";

/**
 * Builds the station rows and counts of devices stored before they were kept with each write
 * (once per store; later calls answer at once). Every write since keeps them exact.
 */
const ensureDeviceIndexes = oncePerStore(buildIndexes);

async function buildIndexes(kv: Deno.Kv): Promise<void> {
  const meta = await kv.get<number>(META_KEY);
  if ((meta.value ?? 0) >= INDEX_VERSION) return;
  const counts: DeviceCounts = { stations: 0, sensors: 0, units: 0 };
  const zones = new Map<number, number>();
  let op = kv.atomic();
  let n = 0;
  for await (const e of kv.list<StoredDevice>({ prefix: ["devices"] })) {
    const c = countsOf(e.value);
    for (const k of ["stations", "sensors", "units"] as const) counts[k] += c[k];
    const zone = zoneOf(e.value);
    if (zone !== null) zones.set(zone, (zones.get(zone) ?? 0) + 1);
    if (e.value.type !== "station") continue;
    op.set(rowKey(e.value.id), stationSummary(e.value));
    if (++n % 500 === 0) {
      await op.commit();
      op = kv.atomic();
    }
  }
  for await (const e of kv.list({ prefix: ["zone_station_counts"] })) op.delete(e.key);
  op.check(meta).set(META_KEY, INDEX_VERSION);
  for (const k of ["stations", "sensors", "units"] as const) {
    op.set(countKey(k), new Deno.KvU64(BigInt(counts[k])));
  }
  for (const [zone, count] of zones) op.set(zoneCountKey(zone), new Deno.KvU64(BigInt(count)));
  await op.commit();
}

/** Device counts of the whole fleet, from the counters kept with the writes. */
export async function deviceCounts(kv: Deno.Kv): Promise<DeviceCounts> {
  await ensureDeviceIndexes(kv);
  const [stations, sensors, units] = await kv.getMany<Deno.KvU64[]>(
    (["stations", "sensors", "units"] as const).map(countKey),
  );
  return { stations: counted(stations), sensors: counted(sensors), units: counted(units) };
}

/** The revision of the devices: it changes with every device write. */
export async function devicesRevision(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(REVISION_KEY)).value?.value ?? 0n;
}

/** How many stations each pricing zone has (zones without stations left out), kept with the writes. */
export async function zoneStationCounts(kv: Deno.Kv): Promise<Map<number, number>> {
  await ensureDeviceIndexes(kv);
  const out = new Map<number, number>();
  for await (const e of kv.list<Deno.KvU64>({ prefix: ["zone_station_counts"] })) {
    const n = counted(e);
    if (n > 0) out.set(e.key[1] as number, n);
  }
  return out;
}

/** Every station's summary, oldest first. */
export async function listStationSummaries(kv: Deno.Kv): Promise<StationSummary[]> {
  await ensureDeviceIndexes(kv);
  return await listValues<StationSummary>(kv, ["station_rows"]);
}

/**
 * The summaries of the stations `offset`..`offset + limit - 1` in id order (oldest first):
 * reads only up to the last one asked for, not every station.
 */
export async function stationSummariesSlice(
  kv: Deno.Kv,
  offset: number,
  limit: number,
): Promise<StationSummary[]> {
  await ensureDeviceIndexes(kv);
  return await listValuesSlice<StationSummary>(kv, ["station_rows"], offset, limit);
}

/** The sensor ids of every station: station id → sensor ids (one scan of the parent index). */
export async function sensorsByStation(kv: Deno.Kv): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for await (const e of kv.list<number>({ prefix: ["devices_by_parent"] })) {
    const station = e.key[1] as number;
    const list = out.get(station);
    if (list) list.push(e.value);
    else out.set(station, [e.value]);
  }
  return out;
}

/** Devices in id order after `afterId`, at most `limit` (every device when no limit). */
export async function listDevicesAfter(
  kv: Deno.Kv,
  afterId: number | null,
  limit?: number,
): Promise<StoredDevice[]> {
  const out: StoredDevice[] = [];
  const iter = kv.list<StoredDevice>(
    afterId === null
      ? { prefix: ["devices"] }
      : { prefix: ["devices"], start: deviceKey(afterId + 1) },
    limit ? { limit } : {},
  );
  for await (const e of iter) out.push(e.value);
  return out;
}

/** Which of `ids` are stations (read from their rows, at most 10 keys per read). */
export async function stationIdsAmong(kv: Deno.Kv, ids: readonly number[]): Promise<Set<number>> {
  await ensureDeviceIndexes(kv);
  const out = new Set<number>();
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<StationSummary[]>(ids.slice(i, i + 10).map(rowKey));
    for (const e of got) if (e.value) out.add(e.value.id);
  }
  return out;
}
