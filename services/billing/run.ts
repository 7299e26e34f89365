/**
 * The billing run (issue 4, "Billing runs"): for every unit of every station of a zone, the
 * energy of the period from the meter counters (local month bounds), the unit bill from the
 * tariff engine, the station's customer bill from its unit bills, written atomically per
 * station (`db/bills.ts`; a few stations share one commit, see station.ts).
 * Running a period again updates drafts and never duplicates a bill; finalized bills are left
 * alone.
 *
 * Units without readings in the period get an estimated bill (spec 001 section 9, estimation
 * levels, core/estimation.ts), the first level that answers: the extended range when the
 * meter has readings on both sides of the period (`method_1_extended_range`), the historical
 * average of the unit's measured bills of the last 3 periods
 * (`method_2_historical_average`), else the average of the units measured in this run of the
 * zone (`method_3_zone_average`). The bill says so: `is_estimation`, `estimation_method` and
 * `calculation_details.estimation` (`{ level, method }`).
 *
 * A run on a period that has ended finalizes its bills ("Saved"): they are due 10 business
 * days after the run (core/bill.ts), and each one with a total above 0 tells its unit's tenant
 * (`bill_created`). A run on the open period writes drafts: previews that tenants do not see,
 * nobody is told of and nothing can pay. A future period is refused. Finalized bills are left
 * alone by later runs (counted as skipped); changing one is what recalculation is for.
 *
 * Cost: the zone's devices are read in one scan, each unit's energy and whether it has
 * readings in one telemetry query (rollups, so the density of raw readings does not matter),
 * the previous bills of a group of stations in one batched read and their bills in one
 * commit; bill ids are reserved in blocks, tenants read once and notifications written in
 * batches. Stations are read a few at a time and billed as soon as they are read.
 */
import type { Deps } from "../deps.ts";
import { averageEnergy } from "../../core/estimation.ts";
import { parsePeriod, type Period } from "../../core/periods.ts";
import { clockOf } from "../platform/clock.ts";
import { RUN_INPUT_ERRORS } from "../../core/billing_input.ts";
import { invalid, notFound } from "../refusal.ts";
import { getZone, listZones, type StoredZone, zoneVersions } from "../../db/zones.ts";
import { versionAtEnd } from "../../core/zone_versions.ts";
import { listDevices } from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { idBlocks } from "../../db/bills.ts";
import { inFlight } from "../../core/in_flight.ts";
import { planStation, sensorsByStation, STATIONS_IN_FLIGHT } from "./plan.ts";
import { businessSchedule } from "../../core/business_bill.ts";
import { NoticeBatch, writePendingNotices } from "./notices.ts";
import {
  billGroup,
  type MissingUnit,
  type Run,
  type StationBilled,
  stationFailed,
  type StationPlan,
} from "./station.ts";
import { checksOf, GROUP_CHECKS, groups } from "./station_groups.ts";

/** How an estimated energy was found (the automatic levels). */
export type { EstimationMethod } from "./station.ts";

/** The periods before a period (core/estimation.ts), as the billing run looks back on them. */
export { previousPeriods } from "../../core/estimation.ts";

/** Locale keys of the errors a run refuses with. */
export const BILLING_ERRORS = {
  ...RUN_INPUT_ERRORS,
  futurePeriod: "billing.errors.future_period",
  zoneNotFound: "billing.errors.zone_not_found",
} as const;

/** Something that could not be billed, and why. */
export interface BillingFailure {
  zone_id: number;
  station_id: number | null;
  unit_id: string | null;
  reason: string;
}

/** What happened to one kind of bill in a run. */
export interface BillCounts {
  created: number;
  updated: number;
  /** Left alone: finalized before the run. */
  skipped: number;
  failed: number;
}

/** What a billing run did: the counts of spec 001 section 7 (field names first) and more. */
export interface BillingResult {
  stations_processed: number;
  /** Unit plus station bills created and updated. */
  total_bills_created: number;
  total_bills_updated: number;
  /** Whether the run finalized its bills (the period has ended) or wrote drafts. */
  finalized: boolean;
  /** Unit bills created, updated and left alone (finalized), and those estimated. */
  bills_created: number;
  bills_updated: number;
  bills_skipped: number;
  customer_bills_created: number;
  customer_bills_updated: number;
  customer_bills_skipped: number;
  bills_estimated: number;
  /** Bills whose meter sent no reading on some days ("no readings for 31 of 31 days"). */
  missing_readings: MissingUnit[];
  period: string;
  zone_ids: number[];
  dry_run: boolean;
  /** Unit bills and station bills, each counted apart (what the screen shows). */
  unit_bills: BillCounts & { estimated: number };
  station_bills: BillCounts;
  failures: BillingFailure[];
}

/** Progress of a run, one event per station. */
export interface BillingProgress {
  zone_id: number;
  station_id: number;
  station_name: string;
  index: number;
  total: number;
  outcome: "ok" | "failed";
}

/** Options of {@link runBilling}. */
export interface BillingOptions {
  /** Compute everything, write nothing, notify nobody. */
  dryRun?: boolean;
  onProgress?: (p: BillingProgress) => void;
  /** Who started the run (kept as the bills' author). */
  author?: string | null;
  /**
   * Bill one station only, finalizing only the bills of these slots (a move-out's final
   * bill, tenancy_bills.ts); the others are written as the period's state makes them.
   */
  only?: { stationId: number; finalizeSlots: readonly string[] };
}

/** A period, or its text (`YYYY-MM[-MM]`, valid: the callers parsed it, core/billing_input.ts). */
const periodOf = (period: Period | string): Period =>
  typeof period === "string" ? parsePeriod(period) : period;

/** The period of a run (or its text), refused when it has not started at the deps' clock. */
function startedPeriod(deps: Deps, periodText: Period | string): Period {
  const period = periodOf(periodText);
  if (clockOf(deps).periodBounds(period).from > deps.now()) {
    throw invalid(
      { period: BILLING_ERRORS.futurePeriod },
      undefined,
      `${period.text} has not started`,
    );
  }
  return period;
}

function emptyResult(
  period: string,
  zoneIds: number[],
  dryRun: boolean,
  finalized: boolean,
): BillingResult {
  return {
    period,
    zone_ids: zoneIds,
    dry_run: dryRun,
    finalized,
    unit_bills: { created: 0, updated: 0, skipped: 0, failed: 0, estimated: 0 },
    station_bills: { created: 0, updated: 0, skipped: 0, failed: 0 },
    total_bills_created: 0,
    total_bills_updated: 0,
    stations_processed: 0,
    bills_created: 0,
    bills_updated: 0,
    bills_skipped: 0,
    customer_bills_created: 0,
    customer_bills_updated: 0,
    customer_bills_skipped: 0,
    bills_estimated: 0,
    missing_readings: [],
    failures: [],
  };
}

/** Whether a run on `period` at `now` finalizes: the period has ended. */
function endedAt(deps: Deps, period: Period): boolean {
  const clock = clockOf(deps);
  return clock.periodBounds(period).to <= clock.now();
}

/**
 * Bills one zone for a period. Refuses a period not started (invalid) and an unknown zone (not
 * found) before reading or writing anything else.
 */
export async function runBilling(
  deps: Deps,
  id: number,
  periodText: Period | string,
  options: BillingOptions = {},
): Promise<BillingResult> {
  const period = startedPeriod(deps, periodText);
  const zone = await getZone(deps.kv, id);
  if (!zone) throw notFound(BILLING_ERRORS.zoneNotFound, `zone ${id} does not exist`);
  return await billZones(deps, [zone], period, options);
}

/** Bills every zone for a period (the script's `--all`). */
export async function runBillingAll(
  deps: Deps,
  periodText: Period | string,
  options: BillingOptions = {},
): Promise<BillingResult> {
  const period = startedPeriod(deps, periodText);
  return await billZones(deps, await listZones(deps.kv), period, options);
}

/**
 * Bills the zones' stations: each station's billing answers what it did (station.ts), added up
 * into the run's result as it comes; the tenants of the bills the run finalized are told once, at
 * the end (each commit marked its notices pending, so a run killed before that loses none: the
 * next run or sweep writes them, notices.ts).
 */
async function billZones(
  deps: Deps,
  zones: StoredZone[],
  period: Period,
  options: BillingOptions,
): Promise<BillingResult> {
  const result = emptyResult(
    period.text,
    zones.map((z) => z.id),
    options.dryRun ?? false,
    endedAt(deps, period),
  );
  if (zones.length === 0) return result;
  const clock = clockOf(deps);
  const now = clock.now();
  const run: Run = {
    deps,
    period,
    bounds: clock.periodBounds(period),
    finalize: result.finalized && !options.only
      ? {
        at: new Date(now).toISOString(),
        on: clock.localParts(now),
      }
      : null,
    finalizeSlots: options.only
      ? {
        slots: new Set(options.only.finalizeSlots),
        at: new Date(now).toISOString(),
        on: clock.localParts(now),
      }
      : null,
    dryRun: options.dryRun ?? false,
    author: options.author ?? null,
    ids: idBlocks(deps.kv),
  };
  // Notices of bills a killed run committed without telling their tenants go out first.
  if (!options.dryRun) await writePendingNotices(deps);
  const devices = await listDevices(deps.kv);
  const sensors = sensorsByStation(devices);
  const notices = new NoticeBatch(deps);
  try {
    for (const zone of zones) {
      const stations = devices.filter((d) =>
        d.type === "station" && d.zone_id === zone.id &&
        (!options.only || d.id === options.only.stationId)
      );
      let index = 0;
      await billZone(run, zone, stations, sensors, (billed) => {
        add(result, zone.id, billed);
        for (const bill of billed.finalized) notices.add(bill, billed.plan.station);
        options.onProgress?.({
          zone_id: zone.id,
          station_id: billed.plan.station.id,
          station_name: billed.plan.station.name,
          index: ++index,
          total: stations.length,
          outcome: billed.failure === null ? "ok" : "failed",
        });
      });
    }
    total(result);
  } finally {
    if (!options.dryRun) {
      const failure = await notices.flush();
      if (failure) {
        result.failures.push({
          zone_id: zones[0].id,
          station_id: null,
          unit_id: null,
          reason: `notifying tenants failed: ${failure}`,
        });
      }
    }
  }
  return result;
}

/** Adds what a station's billing did to the run's result (its totals: {@link total}). */
function add(result: BillingResult, zoneId: number, b: StationBilled): void {
  if (b.failure !== null) {
    result.failures.push({
      zone_id: zoneId,
      station_id: b.plan.station.id,
      unit_id: null,
      reason: b.failure,
    });
    result.unit_bills.failed += b.plan.units.length ||
      (b.plan.station.config.station?.units.length ?? 0);
    result.station_bills.failed++;
    return;
  }
  result.stations_processed++;
  result.missing_readings.push(...b.missing_readings);
  result.bills_created += b.units.created;
  result.bills_updated += b.units.updated;
  result.bills_skipped += b.units.skipped;
  result.bills_estimated += b.units.estimated;
  if (b.customer === "created") result.customer_bills_created++;
  else if (b.customer === "updated") result.customer_bills_updated++;
  else if (b.customer === "skipped") result.customer_bills_skipped++;
}

/** The result's totals and its counts by kind of bill, from the counts added up. */
function total(result: BillingResult): void {
  result.total_bills_created = result.bills_created + result.customer_bills_created;
  result.total_bills_updated = result.bills_updated + result.customer_bills_updated;
  Object.assign(result.unit_bills, {
    created: result.bills_created,
    updated: result.bills_updated,
    skipped: result.bills_skipped,
    estimated: result.bills_estimated,
  });
  Object.assign(result.station_bills, {
    created: result.customer_bills_created,
    updated: result.customer_bills_updated,
    skipped: result.customer_bills_skipped,
  });
}

/**
 * Bills one zone's stations, handing what each station's billing did to `done` as it ends (a
 * station whose reading failed too).
 */
async function billZone(
  run: Run,
  stored: StoredZone,
  stations: StoredDevice[],
  sensors: Map<number, Map<string, StoredDevice>>,
  done: (billed: StationBilled) => void,
): Promise<void> {
  const versions = await zoneVersions(run.deps.kv, stored.id);
  const priced = { stored, zone: versionAtEnd(versions, run.period.text).zone, versions };
  const billed = async (plans: StationPlan[]) => {
    for (const b of await billGroup(run, priced, plans)) done(b);
  };
  // A station is billed as soon as it is read (in groups committed together), unless a unit
  // waits for the zone average of this run (level 3), known once every station is read.
  const plans: StationPlan[] = [];
  const waiting: StationPlan[] = [];
  let group: StationPlan[] = [];
  await inFlight(stations, STATIONS_IN_FLIGHT, async (s) => {
    const plan = await planStation(
      run,
      s,
      sensors.get(s.id),
      (priced.zone.dac_limit_kwh ?? 0) > 0,
      businessSchedule(priced.zone),
    );
    plans.push(plan);
    if (plan.error) return done(stationFailed(plan, `reading the station failed: ${plan.error}`));
    if (plan.units.some((u) => u.energy === null)) return void waiting.push(plan);
    if (group.length > 0 && checksOf(group) + checksOf([plan]) > GROUP_CHECKS) {
      const full = group;
      group = [plan];
      await billed(full);
    } else group.push(plan);
  });
  // The zone average is of units (a unit split between tenancies counts once, as the sum
  // of its parts); a waiting unit's parts get it by their share of the period.
  const measured = new Map<string, number>();
  for (const p of plans) {
    if (p.error) continue;
    for (const u of p.units) {
      if (u.method !== null) continue;
      const key = `${p.station.id}:${u.unit_id}`;
      measured.set(key, (measured.get(key) ?? 0) + u.energy!);
    }
  }
  const zoneAverage = averageEnergy([...measured.values()]) ?? 0;
  for (const p of waiting) {
    for (const u of p.units) {
      if (u.energy === null) u.energy = Math.round(zoneAverage * u.share * 1000) / 1000;
    }
  }
  group.push(...waiting);
  for (const g of groups(group)) await billed(g);
}
