/**
 * What a business bill reads of a unit's meter (issue 34): its energy per 15 minutes summed
 * per time band, its 15-minute average power (the demand peaks) and apparent power (the power
 * factor), from the telemetry store's 15-minute rollups through the unit's meters; and the
 * highest demand of its bills of the 11 periods before (the capacity demand's 12-month max).
 */
import { type UnitMeters, unitMeters } from "../devices/meter_usage.ts";
import type { Deps } from "../deps.ts";
import type { StoredDevice } from "../../core/devices.ts";
import { getDevices, sensorIdsOf } from "../../db/devices.ts";
import {
  type BusinessBill,
  businessSchedule,
  type BusinessUsage,
  computeBusinessBill,
} from "../../core/business_bill.ts";
import type { PricedBill } from "../../core/bill_details.ts";
import type { Zone } from "../../core/zone.ts";
import { completeUsage } from "../../core/business_estimate.ts";
import { periodDemand } from "../../core/demand.ts";
import { type BandSchedule, energyByBand } from "../../core/tou.ts";
import { previousPeriods } from "../../core/estimation.ts";
import { dacHistoryLength } from "../../core/dac.ts";
import type { Period } from "../../core/periods.ts";
import { getUnitBillsOf } from "../../db/bills.ts";

const kw = (p: { ts: number; value: number }) => ({ ts: p.ts, value: p.value / 1000 });
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * A part's usage for a business bill: `totalKwh` (the counter's or an estimate) split by the
 * 15-minute average power, completed where it is missing (core/business_estimate.ts);
 * `yearMaxKw` the highest demand of the periods before; `now` ends an open period's detail.
 */
export async function businessUsage(
  meters: UnitMeters,
  schedule: BandSchedule,
  part: { from: number; to: number },
  offset: number,
  totalKwh: number,
  yearMaxKw: number,
  now: number,
): Promise<PlannedUsage> {
  const inPart = (p: { ts: number }) => p.ts >= part.from && p.ts < part.to;
  const power = (await meters.series("total_power", part.from, part.to, "15m", "avg"))
    .filter(inPart).map(kw);
  const apparent = (await meters.series("total_apparent_power", part.from, part.to, "15m", "avg"))
    .filter(inPart).map(kw);
  const quarterKwh = power.map((p) => ({ ts: p.ts, value: p.value / 4 }));
  const detail = {
    bands: energyByBand(schedule, quarterKwh, offset),
    demand: periodDemand(schedule, power, offset),
    quarters: power.length,
    expected: Math.max(0, Math.floor((Math.min(part.to, now) - part.from) / 900_000)),
  };
  const done = completeUsage(schedule, detail, totalKwh, part, offset);
  // Apparent energy of the quarters with detail, scaled to the period's energy when some are
  // missing (so the factor is that of the measured time).
  const kvah = apparent.reduce((n, p) => n + p.value / 4, 0);
  const measuredKwh = quarterKwh.reduce((n, p) => n + p.value, 0);
  const apparent_kvah = apparent.length === 0 || measuredKwh <= 0
    ? null
    : round3(kvah * totalKwh / measuredKwh);
  return {
    bands: done.bands,
    demand: done.demand,
    year_max_kw: Math.max(yearMaxKw, done.demand.max.kw),
    apparent_kvah,
    estimated: done.estimated,
  };
}

/** The highest demand (kW) of a unit's bills of the 12 months before `period` (0: none). */
export async function previousDemand(
  kv: Deno.Kv,
  stationId: number,
  unitId: string,
  period: Period,
): Promise<number> {
  const bills = await getUnitBillsOf(
    kv,
    stationId,
    previousPeriods(period, dacHistoryLength(period)),
    unitId,
  );
  let max = 0;
  for (const b of bills) {
    const kw = b?.calculation_details.business?.demand.max.kw ?? 0;
    if (kw > max) max = kw;
  }
  return max;
}

/** A unit's usage as a bill of the billing run reads it (station.ts `UnitPlan.business`). */
export type PlannedUsage = BusinessUsage & { estimated: string[] };

/**
 * A part's bill under a business zone (`zone`: the version in force at the part's end), or
 * `partBill` itself when the zone bills by levels. `usage` is what the plan read of the meter;
 * without it (an energy estimated from the zone's average once every station was read) the
 * bands and demand are estimated from the energy alone. The base tariff and fixed charge are
 * `partBill`'s (prorated for a tenancy's part as for any zone).
 */
export function businessBillOf<B extends PricedBill>(
  zone: Zone,
  usage: PlannedUsage | undefined,
  energyKwh: number,
  period: string,
  part: { from: number; to: number },
  offset: number,
  partBill: B,
  yearMaxKw = 0,
): B | (BusinessBill & Pick<B, "parts">) {
  const schedule = businessSchedule(zone);
  if (!schedule) return partBill;
  const none = { kw: 0, at: null, local: null };
  const empty = { max: none, punta: none };
  const filled = usage ?? {
    ...completeUsage(
      schedule,
      {
        bands: { base: 0, intermedia: 0, punta: 0 },
        demand: empty,
        quarters: 0,
        expected: 0,
      },
      energyKwh,
      part,
      offset,
    ),
    year_max_kw: yearMaxKw,
    apparent_kvah: null,
  };
  const bill = computeBusinessBill(zone, filled, period, {
    fixedAmounts: { base_tariff: partBill.base_tariff, fixed_charge: partBill.fixed_charge ?? 0 },
    estimated: filled.estimated,
  });
  return { ...bill, parts: partBill.parts };
}

/** The meter now bound to a station's unit (not a master meter), or null. */
async function unitSensor(
  kv: Deno.Kv,
  stationId: number,
  unitId: string,
): Promise<StoredDevice | null> {
  const sensors = await getDevices(kv, await sensorIdsOf(kv, stationId));
  return sensors.find((s) =>
    s.type === "sensor" && s.config.sensor?.unit_id === unitId && !s.config.sensor.master
  ) ?? null;
}

/**
 * A recalculated bill's business parts (issue 34): the new energy `energyKwh` split by the
 * meter's 15-minute data of the part, its demand peaks and power factor read again, the
 * capacity floor over the 12 months before; where the detail is missing, the bands and demand
 * are estimated from the energy and the bill says so (`business.estimated`). `partBill` itself
 * when the zone bills by levels.
 */
export async function recalculatedBusinessBill<B extends PricedBill>(
  deps: Pick<Deps, "kv" | "telemetry" | "now">,
  bill: { station_id: number; unit_id: string },
  zone: Zone,
  energyKwh: number,
  period: Period,
  part: { from: number; to: number },
  offset: number,
  partBill: B,
): Promise<B | (BusinessBill & Pick<B, "parts">)> {
  const schedule = businessSchedule(zone);
  if (!schedule) return partBill;
  const yearMax = await previousDemand(deps.kv, bill.station_id, bill.unit_id, period);
  const sensor = await unitSensor(deps.kv, bill.station_id, bill.unit_id);
  const usage = sensor
    ? await businessUsage(
      await unitMeters(deps, sensor),
      schedule,
      part,
      offset,
      energyKwh,
      yearMax,
      deps.now(),
    )
    : undefined;
  return businessBillOf(zone, usage, energyKwh, period.text, part, offset, partBill, yearMax);
}
