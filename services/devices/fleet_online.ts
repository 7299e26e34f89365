/**
 * The fleet's online figures: how many devices are online and how many stations are (a
 * station is online when it and all its sensors are, core/device_rules.ts), and the statuses
 * they are counted from (for the system uptime figures, services/measurements.ts).
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
import { devicesRevision, sensorsByStation, stationIdsAmong } from "../../db/device_lists.ts";
import { allStatuses, statusRevision } from "../../db/device_status.ts";
import type { DeviceStatus } from "../../core/devices.ts";

/** How old the figures may be while the fleet keeps changing (ms). */
export const RECOUNT_MS = 5_000;

/** The fleet's online figures. */
interface FleetOnline {
  /** Devices (stations and sensors) whose status is online. */
  devices: number;
  /** Stations that are online with all their sensors. */
  stations: number;
}

/** The statuses of the fleet at one count, and the figures counted from them. */
export interface FleetStatuses {
  figures: FleetOnline;
  /** Each device's own status (devices never heard from are left out: unknown). */
  status: ReadonlyMap<number, DeviceStatus>;
  /** Each station's sensor ids. */
  sensorsOf: ReadonlyMap<number, readonly number[]>;
}

interface Kept {
  revision: string;
  /** When they were counted (by the caller's monotonic clock, not business time). */
  at: number;
  statuses: FleetStatuses;
}

const kept = new WeakMap<Deno.Kv, Kept>();
const counting = new WeakMap<Deno.Kv, Promise<FleetStatuses>>();

async function revisionOf(kv: Deno.Kv): Promise<string> {
  const [status, devices] = await Promise.all([statusRevision(kv), devicesRevision(kv)]);
  return `${status}/${devices}`;
}

/** Counts the figures with one scan of the status records and one of the parent index. */
async function count(kv: Deno.Kv): Promise<FleetStatuses> {
  const [status, sensorsOf] = await Promise.all([allStatuses(kv), sensorsByStation(kv)]);
  const up = [...status].filter(([, s]) => s === "online").map(([id]) => id);
  const stations = up.length === 0 ? [] : await stationIdsAmong(kv, up);
  let online = 0;
  for (const id of stations) {
    if ((sensorsOf.get(id) ?? []).every((s) => status.get(s) === "online")) online++;
  }
  return { figures: { devices: up.length, stations: online }, status, sensorsOf };
}

/** Counts the figures (one count at a time per store) and keeps them with `revision`. */
function recount(kv: Deno.Kv, revision: string, at: number): Promise<FleetStatuses> {
  let running = counting.get(kv);
  if (!running) {
    running = count(kv).then((statuses) => {
      kept.set(kv, { revision, at, statuses });
      return statuses;
    }).finally(() => counting.delete(kv));
    counting.set(kv, running);
  }
  return running;
}

/**
 * The fleet's statuses and online figures (see the module's comment for how fresh they are).
 * `clock` tells the age of a count (a monotonic clock in ms; not business time).
 */
export async function fleetStatuses(
  deps: Pick<Deps, "kv" | "log">,
  clock: () => number = () => performance.now(),
): Promise<FleetStatuses> {
  const revision = await revisionOf(deps.kv);
  const prev = kept.get(deps.kv);
  if (prev?.revision === revision) return prev.statuses;
  const now = clock();
  if (prev && now - prev.at < RECOUNT_MS) {
    recount(deps.kv, revision, now).catch((e) =>
      deps.log.log("error", "online figures recount failed", { error: String(e) })
    );
    return prev.statuses;
  }
  return await recount(deps.kv, revision, now);
}

/** The fleet's online figures, as {@link fleetStatuses} keeps them. */
export async function fleetOnline(
  deps: Pick<Deps, "kv" | "log">,
  clock?: () => number,
): Promise<FleetOnline> {
  return (await fleetStatuses(deps, clock)).figures;
}
