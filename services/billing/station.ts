/**
 * Writing a billing run's bills (run.ts): the unit drafts of planned units, each
 * station's customer bill over what was read before, and the commits. Stations are committed
 * a group at a time (one batched read, one atomic commit for the group); when a group's
 * commit fails (a concurrent write, a limit), each of its stations is billed on its own with
 * retries, so each station stays atomic and fails alone. Each station's billing answers what
 * it did ({@link StationBilled}); the run (run.ts) adds them up and tells the tenants.
 */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import type { Zone } from "../../core/zone.ts";
import type { Period } from "../../core/periods.ts";
import type { ZoneVersion } from "../../core/zone_versions.ts";
import { computePartBill } from "../../core/part_bill.ts";
import { computeCustomerBill } from "../../core/customer_bill.ts";
import {
  buildCustomerBill,
  buildUnitBill,
  type MissingReadings,
  partKey,
  slotOf,
  type UnitBill,
} from "../../core/bill.ts";
import type { DateParts } from "../../core/periods.ts";
import { clockOf } from "../platform/clock.ts";
import { type EstimationLevel, levelOf } from "../../core/estimation.ts";
import type { StoredZone } from "../../db/zones.ts";
import type { StoredDevice } from "../../core/devices.ts";
import {
  type IdSource,
  readStationBills,
  readStationsBills,
  type StationBills,
  type StationWrite,
  type StationWritten,
  type UnitBillDraft,
  writeStationBills,
  writeStationsBills,
} from "../../db/bills.ts";
import { highConsumptionOf } from "./dac.ts";
import { businessBillOf, type PlannedUsage } from "./business.ts";

/** How an estimated energy was found (the automatic levels). */
export type EstimationMethod = Exclude<EstimationLevel, "manual_input">;

/** A unit bill whose meter sent no reading on some days ("no readings for 31 of 31 days"). */
export interface MissingUnit {
  station_id: number;
  unit_id: string;
  tenant_id: number | null;
  days: number;
  of: number;
}

/** What billing one station did, answered to the run that adds them up (run.ts). */
export interface StationBilled {
  plan: StationPlan;
  /** Why the station could not be billed (nothing of it written), or null. */
  failure: string | null;
  /** Unit bills created, updated and left alone (finalized before the run), and estimated. */
  units: { created: number; updated: number; skipped: number; estimated: number };
  /** What became of the station's customer bill; null: it has none. */
  customer: "created" | "updated" | "skipped" | null;
  missing_readings: MissingUnit[];
  /** Unit bills the commit wrote finalized: their tenants are told (notices.ts). */
  finalized: UnitBill[];
}

/** A station that could not be billed, and why. */
export function stationFailed(plan: StationPlan, failure: string): StationBilled {
  return {
    plan,
    failure,
    units: { created: 0, updated: 0, skipped: 0, estimated: 0 },
    customer: null,
    missing_readings: [],
    finalized: [],
  };
}

/** One bill to write: a unit's part of the period (all of it, or a tenancy's) and its energy. */
export interface UnitPlan {
  unit_id: string;
  sensor: StoredDevice;
  /** The tenant of the part, or null for a vacant unit. */
  tenant_id: number | null;
  /** kWh measured or estimated; null until the zone average is known (level 3). */
  energy: number | null;
  /** Readings of the meter in the part (0: it said nothing). */
  readings: number;
  /** The estimation level that gave the energy, or null when it was measured. */
  method: EstimationMethod | null;
  /** The part of the period `[from, to)` when the unit changed hands in it; null: all of it. */
  part: { from: number; to: number } | null;
  /** The part's share of the period's time (1 for the whole period). */
  share: number;
  /** The bill's key among the unit's bills of the period (core/bill.ts `billSlot`). */
  slot: string;
  /** Days of the part without any reading. */
  missing: MissingReadings | null;
  /** kWh of the unit's bills before this period (high-consumption average), when read. */
  previous?: (number | null)[] | null;
  /** Under a business zone: the part's bands, demand and power factor (business.ts). */
  business?: PlannedUsage;
}

/** A station to bill: its units, or why reading them failed. */
export interface StationPlan {
  station: StoredDevice;
  units: UnitPlan[];
  error: string | null;
}

/** What one run shares across its stations. */
export interface Run {
  deps: Deps;
  period: Period;
  bounds: { from: number; to: number };
  /** When the run finalizes (a period that has ended), or null: drafts of the open period. */
  finalize: { at: string; on: DateParts } | null;
  /** Slots finalized whatever the period (a move-out's final bill), or null. */
  finalizeSlots: { slots: ReadonlySet<string>; at: string; on: DateParts } | null;
  dryRun: boolean;
  author: string | null;
  ids: IdSource;
}

/**
 * The zone a run bills: as stored, its prices in force on the period's last day (the station
 * bill's commission, fee and tax) and every price version (the unit bills, day by day).
 */
export interface PricedZone {
  stored: StoredZone;
  zone: Zone;
  versions: ZoneVersion[];
}

/**
 * Bills a group of stations: their previous bills in one batched read, their bills in one
 * commit. When that commit fails (a concurrent write, a limit), each station is billed on
 * its own, so each stays atomic and fails alone. Answers what each station's billing did, in
 * the order of `plans`.
 */
export async function billGroup(
  run: Run,
  priced: PricedZone,
  plans: StationPlan[],
): Promise<StationBilled[]> {
  const { deps, period } = run;
  if (plans.length > 1) {
    try {
      const drafts = plans.map((p) => p.units.map((u) => unitDraft(run, priced, p.station, u)));
      const prev = await readStationsBills(
        deps.kv,
        period.text,
        drafts.map((d, i) => ({
          stationId: plans[i].station.id,
          slots: d.map(slotOf),
        })),
      );
      const writes = plans.map((p, i) => stationWrite(run, priced, p, drafts[i], prev[i]));
      if (run.dryRun) return writes.map((w, i) => countDry(plans[i], w));
      const res = await writeStationsBills(
        deps.kv,
        period.text,
        writes,
        deps.now(),
        run.ids,
        runStamp(run, priced),
      );
      if (res) return res.map((r, i) => countWritten(plans[i], r));
    } catch {
      // billed one by one below, where a failure is reported per station
    }
  }
  const out: StationBilled[] = [];
  for (const plan of plans) {
    try {
      out.push(
        await billStation(run, priced, plan) ??
          stationFailed(plan, "the station's bills kept changing during the run; run it again"),
      );
    } catch (e) {
      out.push(stationFailed(plan, e instanceof Error ? e.message : String(e)));
    }
  }
  return out;
}

/** The unit bill of a planned unit (finalized when the run finalizes). */
function unitDraft(
  run: Run,
  priced: PricedZone,
  station: StoredDevice,
  u: UnitPlan,
): UnitBillDraft {
  const { period, bounds } = run;
  const { stored } = priced;
  const offset = clockOf(run.deps).offsetMinutes();
  const partBill = computePartBill(
    priced.versions,
    u.energy!,
    { text: period.text, ...bounds, offsetMinutes: offset },
    u.part ?? bounds,
  );
  const high = highConsumptionOf(priced.zone, period, u.energy!, u.previous ?? null);
  const last = partBill.parts[partBill.parts.length - 1];
  const used = priced.versions.filter((v) =>
    partBill.parts.some((p) => p.applies_from === v.applies_from)
  );
  // A business zone prices the part by its bands and demand (the version at the part's end).
  const atEnd = used.find((v) => v.applies_from === last.applies_from)!.zone;
  const computed = businessBillOf(
    atEnd,
    u.business,
    u.energy!,
    period.text,
    u.part ?? bounds,
    offset,
    partBill,
  );
  return buildUnitBill(
    {
      unit_id: u.unit_id,
      station_id: station.id,
      zone_id: stored.id,
      period,
      tenant_id: u.tenant_id,
      sensor_serial: u.sensor?.serial_number ?? null,
      // The prices of the period's last day; every version used when the period is split.
      zone_snapshot: {
        ...stored,
        ...used.find((v) => v.applies_from === last.applies_from)!.zone,
        id: stored.id,
        name: stored.name,
        ...(used.length > 1
          ? { price_versions: used.map((v) => ({ applies_from: v.applies_from, zone: v.zone })) }
          : {}),
      },
      author: run.author,
      estimation: u.method ? { level: levelOf(u.method), method: u.method } : null,
      finalize: run.finalize ??
        (run.finalizeSlots?.slots.has(u.slot) ? run.finalizeSlots : null),
      part: u.part && {
        from: new Date(u.part.from).toISOString(),
        to: new Date(u.part.to).toISOString(),
        key: u.part ? partKey(u.part.from, run.bounds.from) : null,
      },
      missing_readings: u.missing,
    },
    { ...computed, high_consumption: high },
  );
}

/** A station's write: its unit drafts and its customer bill, over what was read before. */
function stationWrite(
  run: Run,
  priced: PricedZone,
  plan: StationPlan,
  drafts: UnitBillDraft[],
  prev: StationBills,
): StationWrite {
  const { period } = run;
  // The station bill counts finalized unit bills as they stand, also those of parts no longer
  // billed (a final bill whose tenancy changed since); drafts of such parts are removed.
  const effective = [
    ...drafts.map((d) => {
      const old = prev.units.get(slotOf(d))?.value;
      return old?.is_finalized ? old : d;
    }),
    ...prev.others.filter((e) => e.value.is_finalized).map((e) => e.value),
  ];
  const remove = prev.others.filter((e) => !e.value.is_finalized);
  const customer = effective.length === 0 ? null : buildCustomerBill(
    {
      station_id: plan.station.id,
      period,
      customer_id: plan.station.customer_id,
      zone_id: priced.stored.id,
      finalized: run.finalize !== null,
    },
    computeCustomerBill(priced.zone, effective),
  );
  // A finalized station bill is restated when a unit bill of it is written (one billed again
  // after a delete), so it always adds up its unit bills.
  const restate = remove.length > 0 ||
    drafts.some((d) => !prev.units.get(slotOf(d))?.value?.is_finalized);
  return {
    stationId: plan.station.id,
    units: drafts.map((d) => ({ draft: d, prev: prev.units.get(slotOf(d))! })),
    remove,
    customer: customer ? { draft: customer, prev: prev.customer, restate } : null,
  };
}

/** What a dry run would do for a station. */
function countDry(plan: StationPlan, w: StationWrite): StationBilled {
  const units = { created: 0, updated: 0, skipped: 0, estimated: estimated(plan) };
  for (const u of w.units) {
    const old = u.prev.value;
    if (old?.is_finalized) units.skipped++;
    else if (old) units.updated++;
    else units.created++;
  }
  let customer: StationBilled["customer"] = null;
  if (w.customer) {
    const old = w.customer.prev.value;
    if (old?.is_finalized && !w.customer.restate) customer = "skipped";
    else if (old) customer = "updated";
    else customer = "created";
  }
  return { plan, failure: null, units, customer, missing_readings: missing(plan), finalized: [] };
}

/** What a station's commit did, and the bills it finalized. */
function countWritten(plan: StationPlan, res: StationWritten): StationBilled {
  return {
    plan,
    failure: null,
    units: {
      created: res.created.length,
      updated: res.updated.length,
      skipped: res.skipped.length,
      estimated: estimated(plan),
    },
    customer: res.customer?.outcome ?? null,
    missing_readings: missing(plan),
    finalized: [...res.created, ...res.updated].filter((b) => b.is_finalized),
  };
}

/**
 * Computes and writes one station's bills, answering what it did; null when concurrent writes
 * kept conflicting.
 */
async function billStation(
  run: Run,
  priced: PricedZone,
  plan: StationPlan,
): Promise<StationBilled | null> {
  const { deps, period } = run;
  const drafts = plan.units.map((u) => unitDraft(run, priced, plan.station, u));
  for (let attempt = 0; attempt < 3; attempt++) {
    const prev = await readStationBills(
      deps.kv,
      plan.station.id,
      period.text,
      drafts.map(slotOf),
    );
    const w = stationWrite(run, priced, plan, drafts, prev);
    if (run.dryRun) return countDry(plan, w);
    const res = await writeStationBills(
      deps.kv,
      plan.station.id,
      period.text,
      w.units,
      w.customer,
      deps.now(),
      run.ids,
      w.remove,
      runStamp(run, priced),
    );
    if (res.ok) return countWritten(plan, res);
  }
  return null;
}

const estimated = (plan: StationPlan) => plan.units.filter((u) => u.method !== null).length;

function missing(plan: StationPlan): MissingUnit[] {
  return plan.units.flatMap((u) =>
    u.missing
      ? [{ station_id: plan.station.id, unit_id: u.unit_id, tenant_id: u.tenant_id, ...u.missing }]
      : []
  );
}

/** The audit stamp of a run's commit: the zone and period billed, by whom. */
function runStamp(run: { deps: Deps; period: { text: string } }, priced: PricedZone) {
  return auditStamp(run.deps, "billing.run", `zone:${priced.stored.id}/${run.period.text}`);
}
