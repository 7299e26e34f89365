/**
 * The fleet's online figures: how many devices are online and how many stations are (a
 * station is online when it and all its sensors are, core/device_rules.ts).
 *
 * Counting them reads every status record and the parent index, a scan of the fleet, so the
 * figures are kept per store and answered again while neither the statuses nor the devices
 * changed (both stores keep a revision that every write moves): then they are exact. When
 * either moved, they are counted again before answering, unless the last count is younger
 * than {@link RECOUNT_MS}: then the previous figures are answered and one recount runs in the
 * background. So on a busy fleet the dashboard's online figures are at most that old, and a
 * page never waits for more than one scan at a time (a bounded cache, by choice: ingest
 * itself notices a silent meter only after a minute).
 */
import type { Deps } from "../deps.ts";
import { devicesRevision, sensorsByStation, stationIdsAmong } from "../../db/devices.ts";
import { allStatuses, statusRevision } from "../../db/device_status.ts";

/** How old the figures may be while the fleet keeps changing (ms). */
export const RECOUNT_MS = 5_000;

/** The fleet's online figures. */
export interface FleetOnline {
  /** Devices (stations and sensors) whose status is online. */
  devices: number;
  /** Stations that are online with all their sensors. */
  stations: number;
}

interface Kept {
  revision: string;
  /** When they were counted (by the caller's monotonic clock, not business time). */
  at: number;
  figures: FleetOnline;
}

const kept = new WeakMap<Deno.Kv, Kept>();
const counting = new WeakMap<Deno.Kv, Promise<FleetOnline>>();

async function revisionOf(kv: Deno.Kv): Promise<string> {
  const [status, devices] = await Promise.all([statusRevision(kv), devicesRevision(kv)]);
  return `${status}/${devices}`;
}

/** Counts the figures with one scan of the status records and one of the parent index. */
async function count(kv: Deno.Kv): Promise<FleetOnline> {
  const status = await allStatuses(kv);
  const up = [...status].filter(([, s]) => s === "online").map(([id]) => id);
  if (up.length === 0) return { devices: 0, stations: 0 };
  const [stations, sensors] = await Promise.all([stationIdsAmong(kv, up), sensorsByStation(kv)]);
  let online = 0;
  for (const id of stations) {
    if ((sensors.get(id) ?? []).every((s) => status.get(s) === "online")) online++;
  }
  return { devices: up.length, stations: online };
}

/** Counts the figures (one count at a time per store) and keeps them with `revision`. */
function recount(kv: Deno.Kv, revision: string, at: number): Promise<FleetOnline> {
  let running = counting.get(kv);
  if (!running) {
    running = count(kv).then((figures) => {
      kept.set(kv, { revision, at, figures });
      return figures;
    }).finally(() => counting.delete(kv));
    counting.set(kv, running);
  }
  return running;
}

/**
 * The fleet's online figures (see the module's comment for how fresh they are). `clock` tells
 * the age of a count (a monotonic clock in ms; not business time).
 */
export async function fleetOnline(
  deps: Pick<Deps, "kv" | "log">,
  clock: () => number = () => performance.now(),
): Promise<FleetOnline> {
  const revision = await revisionOf(deps.kv);
  const prev = kept.get(deps.kv);
  if (prev?.revision === revision) return prev.figures;
  const now = clock();
  if (prev && now - prev.at < RECOUNT_MS) {
    recount(deps.kv, revision, now).catch((e) =>
      deps.log.log("error", "online figures recount failed", { error: String(e) })
    );
    return prev.figures;
  }
  return await recount(deps.kv, revision, now);
}
