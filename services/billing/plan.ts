/**
 * Planning a billing run's stations (run.ts): each metered unit's parts of the period (one
 * per tenancy and vacant stretch) with their energy from the meter, or the estimation levels 1
 * and 2 (level 3, the zone average, is known once every station of the zone is read), a few
 * stations at a time; for a zone with a high-consumption limit, the unit's earlier use.
 */
import type { StoredDevice } from "../../core/devices.ts";
import { type UnitMeters, unitMeters } from "../devices/meter_usage.ts";
import { extendedRangeEstimate, historicalAverage } from "./estimation.ts";
import type { Run, StationPlan, UnitPlan } from "./station.ts";
import { billSlot, type MissingReadings } from "../../core/bill.ts";
import { periodParts } from "../../core/tenancy.ts";
import { legacyTenancy, stationTenancies } from "../../db/tenancies.ts";
import { previousUse } from "./dac.ts";
import { businessUsage, previousDemand } from "./business.ts";
import type { BandSchedule } from "../../core/tou.ts";
import { clockOf } from "../platform/clock.ts";

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
    // A master meter measures the whole building (its CFE bill), not a unit to bill.
    if (d.type !== "sensor" || d.parent_id === null || !unit || d.config.sensor?.master) continue;
    let units = out.get(d.parent_id);
    if (!units) out.set(d.parent_id, units = new Map());
    units.set(unit, d);
  }
  return out;
}

/**
 * A station's bills to write: for every unit that has a meter (a unit without one is not
 * billed), one per part of the period (core/tenancy.ts: each tenancy's days and each vacant
 * stretch; one part when the unit did not change hands), with the part's measured energy.
 * A unit whose meter said nothing all period gets the estimation levels 1 and 2 here (3, the
 * zone average, once the zone is read), spread over its parts by their time. Days without
 * readings are counted on each part. Under a business zone (`bands`), each part's usage by
 * time band, its demand and power factor (business.ts).
 */
export async function planStation(
  run: Run,
  station: StoredDevice,
  sensors: Map<string, StoredDevice> | undefined,
  readPrevious = false,
  bands: BandSchedule | null = null,
): Promise<StationPlan> {
  const units: UnitPlan[] = [];
  const { deps, bounds } = run;
  try {
    const tenancies = await stationTenancies(deps.kv, station.id);
    for (const unit of station.config.station?.units ?? []) {
      const sensor = sensors?.get(unit.id);
      if (!sensor) continue;
      const pointer = sensor.tenant_id ?? sensor.config.sensor?.tenant_id ?? null;
      const held = tenancies.get(unit.id) ??
        (pointer === null ? [] : [legacyTenancy(station.id, unit.id, pointer)]);
      const parts = periodParts(held, bounds);
      const meters = await unitMeters(deps, sensor);
      const plans: UnitPlan[] = [];
      for (const part of parts) {
        const whole = parts.length === 1;
        const usage = await meterUsage(meters, part, deps.now());
        plans.push({
          unit_id: unit.id,
          sensor,
          tenant_id: part.tenant_id,
          energy: usage.readings > 0 ? round3(usage.delta) : 0,
          readings: usage.readings,
          method: null,
          part: whole ? null : { from: part.from, to: part.to },
          share: (part.to - part.from) / (bounds.to - bounds.from),
          slot: billSlot(unit.id, part.from, bounds.from),
          missing: usage.missing,
        });
      }
      if (plans.every((p) => p.readings === 0)) {
        let energy = await extendedRangeEstimate(deps, sensor.serial_number, bounds, {
          bothSides: true,
        });
        let method: UnitPlan["method"] = "method_1_extended_range";
        if (energy === null) {
          energy = await historicalAverage(deps.kv, station.id, unit.id, run.period);
          method = energy === null ? "method_3_zone_average" : "method_2_historical_average";
        }
        for (const p of plans) {
          p.method = method;
          p.energy = energy === null ? null : round3(energy * p.share);
        }
      }
      if (bands) {
        // A business zone (issue 34): each part's bands, demand and power factor.
        const yearMax = await previousDemand(deps.kv, station.id, unit.id, run.period);
        const offset = clockOf(deps).offsetMinutes();
        for (const p of plans) {
          if (p.energy === null) continue;
          p.business = await businessUsage(
            meters,
            bands,
            p.part ?? bounds,
            offset,
            p.energy,
            yearMax,
            deps.now(),
          );
        }
      }
      if (readPrevious) {
        const previous = await previousUse(deps.kv, station.id, unit.id, run.period);
        for (const p of plans) p.previous = previous;
      }
      units.push(...plans);
    }
    return { station, units, error: null };
  } catch (e) {
    return { station, units, error: e instanceof Error ? e.message : String(e) };
  }
}

const DAY = 86_400_000;

/**
 * A unit's energy over a part (kWh) across the meters it had (a meter replaced in the part
 * counts each meter's own increase), how many readings it holds and how many of its days
 * (those begun by `now`) have none.
 */
async function meterUsage(
  meters: UnitMeters,
  part: { from: number; to: number },
  now: number,
): Promise<{ delta: number; readings: number; missing: MissingReadings | null }> {
  const usage = await meters.counterUsage("total_energy_kwh", part.from, part.to);
  const end = Math.min(part.to, now);
  const of = Math.max(0, Math.ceil((end - part.from) / DAY));
  if (of === 0) return { ...usage, missing: null };
  // Hours with a reading, counted by the local day they fall in (hours: days in UTC would
  // straddle the business time zone's days).
  const hours = usage.readings === 0
    ? []
    : await meters.series("total_energy_kwh", part.from, end, "1h", "last");
  const days = new Set(
    hours.filter((p) => p.ts >= part.from && p.ts < end).map((p) =>
      Math.floor((p.ts - part.from) / DAY)
    ),
  );
  const missing = of - Math.min(of, days.size);
  return { ...usage, missing: missing > 0 ? { days: missing, of } : null };
}
