/**
 * Planning a billing run's stations (run.ts): each unit's energy of the period from its meter,
 * or the estimation levels 1 and 2 (level 3, the zone average, is known once every station of
 * the zone is read), a few stations at a time; for a zone with a high-consumption limit, the
 * unit's earlier use.
 */
import type { StoredDevice } from "../../db/devices.ts";
import { counterUsageOf } from "../../db/telemetry/mod.ts";
import { extendedRangeEstimate, historicalAverage } from "./estimation.ts";
import type { Run, StationPlan, UnitPlan } from "./station.ts";
import { previousUse } from "./dac.ts";

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Stations billed at the same time (their reads and commits overlap). */
export const STATIONS_IN_FLIGHT = 4;

/** The sensor bound to each unit, per station: station id → unit id → sensor. */
export function sensorsByStation(
  devices: readonly StoredDevice[],
): Map<number, Map<string, StoredDevice>> {
  const out = new Map<number, Map<string, StoredDevice>>();
  for (const d of devices) {
    const unit = d.config.sensor?.unit_id;
    if (d.type !== "sensor" || d.parent_id === null || !unit) continue;
    let units = out.get(d.parent_id);
    if (!units) out.set(d.parent_id, units = new Map());
    units.set(unit, d);
  }
  return out;
}

/** A station's units with their measured energy, or the levels 1 and 2 of the estimation. */
export async function planStation(
  run: Run,
  station: StoredDevice,
  sensors: Map<string, StoredDevice> | undefined,
  readPrevious = false,
): Promise<StationPlan> {
  const units: UnitPlan[] = [];
  const { deps, bounds } = run;
  try {
    for (const unit of station.config.station?.units ?? []) {
      const sensor = sensors?.get(unit.id) ?? null;
      const plan: UnitPlan = {
        unit_id: unit.id,
        sensor,
        tenant_id: sensor?.tenant_id ?? sensor?.config.sensor?.tenant_id ?? unit.tenant_id ?? null,
        energy: null,
        method: null,
      };
      if (sensor) {
        const usage = await counterUsageOf(
          deps.telemetry,
          sensor.serial_number,
          "total_energy_kwh",
          bounds.from,
          bounds.to,
        );
        if (usage.readings > 0) plan.energy = round3(usage.delta);
        else {
          plan.energy = await extendedRangeEstimate(deps, sensor.serial_number, bounds, {
            bothSides: true,
          });
          if (plan.energy !== null) plan.method = "method_1_extended_range";
        }
      }
      if (plan.energy === null) {
        plan.energy = await historicalAverage(deps.kv, station.id, unit.id, run.period);
        plan.method = plan.energy === null
          ? "method_3_zone_average"
          : "method_2_historical_average";
      }
      if (readPrevious) plan.previous = await previousUse(deps.kv, station.id, unit.id, run.period);
      units.push(plan);
    }
    return { station, units, error: null };
  } catch (e) {
    return { station, units, error: e instanceof Error ? e.message : String(e) };
  }
}

/** `fn` over `items`, at most `limit` at a time; answers the results in the order of `items`. */
export async function inFlight<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
