/**
 * The billing run (issue 4, "Billing runs"): for every unit of every station of a zone, the
 * energy of the period from the meter counters (local month bounds), the unit bill from the
 * tariff engine, the station's customer bill from its unit bills, written per station in one
 * atomic commit (`db/bills.ts`). Running a period again updates drafts and never duplicates a
 * bill; finalized bills are left alone.
 *
 * Units without readings get an estimated bill (spec 001 section 9, estimation levels): the
 * historical average of the unit's bills of the last 3 periods when it has some
 * (`method_2_historical_average`), else the average of the units measured in this run of the
 * zone (`method_3_zone_average`). Bills are due 10 business days after the period's last day;
 * each new bill notifies its unit's tenant (`bill_created`).
 */
import type { Deps } from "./deps.ts";
import type { Zone } from "../core/zone.ts";
import { computeUnitBill } from "../core/tariff.ts";
import { computeCustomerBill } from "../core/customer_bill.ts";
import {
  addBusinessDays,
  bimonthlyPeriod,
  daysInMonth,
  formatDate,
  monthlyPeriod,
  parsePeriod,
  type Period,
} from "../core/periods.ts";
import { monthBounds } from "../core/local_time.ts";
import { getZone, listZones, type StoredZone } from "../db/zones.ts";
import { getDevices, listDevices, type StoredDevice, unitBindings } from "../db/devices.ts";
import {
  type CustomerBillDraft,
  getUnitBillOf,
  readStationBills,
  type StoredUnitBill,
  type UnitBillDraft,
  type UnitWrite,
  writeStationBills,
} from "../db/bills.ts";
import { createNotification } from "../db/notifications.ts";
import { getUser } from "../db/users.ts";

/** Locale keys of the errors a run refuses with. */
export const BILLING_ERRORS = {
  invalidPeriod: "billing.errors.invalid_period",
  invalidZone: "billing.errors.invalid_zone",
  zoneNotFound: "billing.errors.zone_not_found",
} as const;

/** A run refused before anything was written: bad input (400) or an unknown zone (404). */
export class BillingInputError extends Error {
  constructor(readonly status: 400 | 404, readonly key: string, message: string) {
    super(message);
    this.name = "BillingInputError";
  }
}

/** How an estimated energy was found. */
export type EstimationMethod = "method_2_historical_average" | "method_3_zone_average";

/** Something that could not be billed, and why. */
export interface BillingFailure {
  zone_id: number;
  station_id: number | null;
  unit_id: string | null;
  reason: string;
}

/** What a billing run did (field names of spec 001 section 7 first). */
export interface BillingResult {
  period: string;
  zone_ids: number[];
  dry_run: boolean;
  /** Unit plus customer bills created and updated. */
  total_bills_created: number;
  total_bills_updated: number;
  stations_processed: number;
  /** Unit bills created, updated and left alone (finalized). */
  bills_created: number;
  bills_updated: number;
  bills_skipped: number;
  customer_bills_created: number;
  customer_bills_updated: number;
  customer_bills_skipped: number;
  /** Unit bills whose energy was estimated. */
  bills_estimated: number;
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
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Validates a period; BillingInputError 400 otherwise. */
export function checkPeriod(period: unknown): Period {
  try {
    return parsePeriod(period);
  } catch (e) {
    throw new BillingInputError(400, BILLING_ERRORS.invalidPeriod, (e as Error).message);
  }
}

/** Validates a zone id (a positive integer, or its digits); BillingInputError 400 otherwise. */
export function checkZoneId(zoneId: unknown): number {
  const n = typeof zoneId === "string" && /^\d{1,15}$/.test(zoneId) ? Number(zoneId) : zoneId;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) {
    throw new BillingInputError(
      400,
      BILLING_ERRORS.invalidZone,
      `zone_id must be a positive integer, saw ${JSON.stringify(zoneId)}`,
    );
  }
  return n;
}

/** The instants [from, to) of a period in the business time zone. */
export function periodBounds(period: Period, offset: number): { from: number; to: number } {
  const first = period.months[0];
  const last = period.months[period.months.length - 1];
  return {
    from: monthBounds(period.year, first, offset).from,
    to: monthBounds(period.year, last, offset).to,
  };
}

/** The due date: 10 business days after the period's last day (`YYYY-MM-DD`). */
export function dueDateOf(period: Period): string {
  const month = period.months[period.months.length - 1];
  return formatDate(
    addBusinessDays({ year: period.year, month, day: daysInMonth(period.year, month) }, 10),
  );
}

/** The `n` periods of the same kind before `period`, newest first. */
export function previousPeriods(period: Period, n: number): string[] {
  const out: string[] = [];
  const step = period.kind === "monthly" ? 1 : 2;
  let year = period.year;
  let month = period.months[0];
  for (let i = 0; i < n; i++) {
    month -= step;
    if (month < 1) {
      month += 12;
      year--;
    }
    out.push(period.kind === "monthly" ? monthlyPeriod(year, month) : bimonthlyPeriod(year, month));
  }
  return out;
}

/** One unit to bill and its measurement. */
interface UnitPlan {
  unit_id: string;
  sensor: StoredDevice | null;
  tenant_id: number | null;
  /** Measured kWh, or null without readings. */
  measured: number | null;
}

interface StationPlan {
  station: StoredDevice;
  units: UnitPlan[];
  error: string | null;
}

function asZone(z: StoredZone): Zone {
  return { ...z, id: String(z.id) };
}

async function measureUnit(
  deps: Deps,
  sensor: StoredDevice | null,
  bounds: { from: number; to: number },
): Promise<number | null> {
  if (!sensor) return null;
  const serial = sensor.serial_number;
  const points = await deps.telemetry.series(
    serial,
    "total_energy_kwh",
    bounds.from,
    bounds.to,
    "1h",
    "last",
  );
  if (!points.some((p) => p.ts >= bounds.from)) return null;
  return round3(
    await deps.telemetry.counterDelta(serial, "total_energy_kwh", bounds.from, bounds.to),
  );
}

async function planStation(
  deps: Deps,
  station: StoredDevice,
  bounds: { from: number; to: number },
): Promise<StationPlan> {
  const units: UnitPlan[] = [];
  try {
    const bindings = await unitBindings(deps.kv, station.id);
    const sensors = new Map(
      (await getDevices(deps.kv, [...bindings.values()])).map((s) => [s.id, s]),
    );
    for (const unit of station.config.station?.units ?? []) {
      const sid = bindings.get(unit.id);
      const sensor = sid === undefined ? null : sensors.get(sid) ?? null;
      units.push({
        unit_id: unit.id,
        sensor,
        tenant_id: sensor?.tenant_id ?? sensor?.config.sensor?.tenant_id ?? unit.tenant_id ?? null,
        measured: await measureUnit(deps, sensor, bounds),
      });
    }
    return { station, units, error: null };
  } catch (e) {
    return { station, units, error: e instanceof Error ? e.message : String(e) };
  }
}

/** The historical average of a unit's measured bills of the last 3 periods, or null. */
async function historicalAverage(
  deps: Deps,
  stationId: number,
  unitId: string,
  period: Period,
): Promise<number | null> {
  const bills: StoredUnitBill[] = [];
  for (const p of previousPeriods(period, 3)) {
    const b = await getUnitBillOf(deps.kv, stationId, p, unitId);
    if (b && !b.is_estimation) bills.push(b);
  }
  if (bills.length === 0) return null;
  return round3(bills.reduce((s, b) => s + b.energy_consumption, 0) / bills.length);
}

function emptyResult(period: string, zoneIds: number[], dryRun: boolean): BillingResult {
  return {
    period,
    zone_ids: zoneIds,
    dry_run: dryRun,
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
    failures: [],
  };
}

/**
 * Bills one zone for a period. Throws {@link BillingInputError} for a bad period or zone id
 * (400) and an unknown zone (404) before reading or writing anything else.
 */
export async function runBilling(
  deps: Deps,
  zoneId: unknown,
  periodText: unknown,
  options: BillingOptions = {},
): Promise<BillingResult> {
  const period = checkPeriod(periodText);
  const id = checkZoneId(zoneId);
  const zone = await getZone(deps.kv, id);
  if (!zone) {
    throw new BillingInputError(404, BILLING_ERRORS.zoneNotFound, `zone ${id} does not exist`);
  }
  const result = emptyResult(period.text, [id], options.dryRun ?? false);
  await billZone(deps, zone, period, options, result);
  return result;
}

/** Bills every zone for a period (the script's `--all`). */
export async function runBillingAll(
  deps: Deps,
  periodText: unknown,
  options: BillingOptions = {},
): Promise<BillingResult> {
  const period = checkPeriod(periodText);
  const zones = await listZones(deps.kv);
  const result = emptyResult(period.text, zones.map((z) => z.id), options.dryRun ?? false);
  for (const zone of zones) await billZone(deps, zone, period, options, result);
  return result;
}

async function billZone(
  deps: Deps,
  stored: StoredZone,
  period: Period,
  options: BillingOptions,
  result: BillingResult,
): Promise<void> {
  const zone = asZone(stored);
  const bounds = periodBounds(period, deps.config.utcOffsetMinutes);
  const stations = (await listDevices(deps.kv, "station")).filter((s) => s.zone_id === stored.id);
  const plans: StationPlan[] = [];
  for (const s of stations) plans.push(await planStation(deps, s, bounds));
  const measured = plans.flatMap((p) => p.units).filter((u) => u.measured !== null);
  const zoneAverage = measured.length === 0
    ? 0
    : round3(measured.reduce((s, u) => s + u.measured!, 0) / measured.length);

  let index = 0;
  for (const plan of plans) {
    index++;
    const failed = (reason: string, unitId: string | null = null) => {
      result.failures.push({
        zone_id: stored.id,
        station_id: plan.station.id,
        unit_id: unitId,
        reason,
      });
    };
    let ok = false;
    if (plan.error) failed(`reading the station failed: ${plan.error}`);
    else {
      try {
        ok = await billStation(deps, stored, zone, period, plan, zoneAverage, options, result);
        if (!ok) failed("the station's bills kept changing during the run; run it again");
      } catch (e) {
        failed(e instanceof Error ? e.message : String(e));
      }
    }
    options.onProgress?.({
      zone_id: stored.id,
      station_id: plan.station.id,
      station_name: plan.station.name,
      index,
      total: plans.length,
      outcome: ok ? "ok" : "failed",
    });
  }
}

/** Computes and writes one station's bills; false when concurrent writes kept conflicting. */
async function billStation(
  deps: Deps,
  stored: StoredZone,
  zone: Zone,
  period: Period,
  plan: StationPlan,
  zoneAverage: number,
  options: BillingOptions,
  result: BillingResult,
): Promise<boolean> {
  const monthly = period.kind === "monthly";
  const due = dueDateOf(period);
  const snapshot = { ...stored };
  const drafts: UnitBillDraft[] = [];
  let estimated = 0;
  for (const u of plan.units) {
    let energy = u.measured;
    let method: string | null = null;
    if (energy === null) {
      const hist = await historicalAverage(deps, plan.station.id, u.unit_id, period);
      method = hist === null ? "method_3_zone_average" : "method_2_historical_average";
      energy = hist ?? zoneAverage;
      estimated++;
    }
    const bill = computeUnitBill(zone, energy, { period: period.text });
    drafts.push({
      unit_id: u.unit_id,
      station_id: plan.station.id,
      billing_month: monthly ? period.text : null,
      billing_period: monthly ? null : period.text,
      energy_consumption: bill.energy_consumption,
      energy_cost: bill.energy_cost,
      base_tariff: bill.base_tariff,
      compensation_cost: bill.compensation_cost,
      tax_cost: bill.tax_cost,
      total_cost: bill.total_cost,
      currency: bill.currency,
      payment_status: "pending",
      payment_due_date: due,
      payment_date: null,
      openpay_charge_id: null,
      is_finalized: false,
      is_estimation: method !== null,
      estimation_method: method,
      recalculation_method: null,
      override_reason: null,
      calculation_details: {
        pricing_mode: bill.pricing_mode,
        season: bill.season,
        winter_days: bill.winter_days,
        summer_days: bill.summer_days,
        tiers: bill.calculation_details,
      },
      zone_snapshot: snapshot,
      author: options.author ?? null,
      created_by: null,
      tenant_id: u.tenant_id,
      sensor_serial: u.sensor?.serial_number ?? null,
      zone_id: stored.id,
    });
  }

  for (let attempt = 0; attempt < 3; attempt++) {
    const prev = await readStationBills(
      deps.kv,
      plan.station.id,
      period.text,
      drafts.map((d) => d.unit_id),
    );
    // The station bill counts finalized unit bills as they stand.
    const effective = drafts.map((d) => {
      const old = prev.units.get(d.unit_id)?.value;
      return old?.is_finalized ? old : d;
    });
    const cb = computeCustomerBill(zone, effective);
    const customer: CustomerBillDraft | null = drafts.length === 0 ? null : {
      station_id: plan.station.id,
      billing_month: monthly ? period.text : null,
      billing_period: monthly ? null : period.text,
      energy_consumption: round3(cb.energy_consumption),
      commission_amount: cb.commission_amount,
      fee_amount: cb.fee_amount,
      tax_amount: cb.tax_amount,
      total_amount: cb.total_amount,
      currency: cb.currency,
      is_finalized: false,
      calculation_details: cb.calculation_details,
      customer_id: plan.station.customer_id,
      zone_id: stored.id,
    };
    if (options.dryRun) {
      for (const d of drafts) {
        const old = prev.units.get(d.unit_id)?.value;
        if (old?.is_finalized) result.bills_skipped++;
        else if (old) result.bills_updated++;
        else result.bills_created++;
      }
      if (customer) {
        const old = prev.customer.value;
        if (old?.is_finalized) result.customer_bills_skipped++;
        else if (old) result.customer_bills_updated++;
        else result.customer_bills_created++;
      }
      finishCounts(result, plan, estimated);
      return true;
    }
    const writes: UnitWrite[] = drafts.map((d) => ({ draft: d, prev: prev.units.get(d.unit_id)! }));
    const res = await writeStationBills(
      deps.kv,
      plan.station.id,
      period.text,
      writes,
      customer ? { draft: customer, prev: prev.customer } : null,
      deps.now(),
    );
    if (!res.ok) continue;
    result.bills_created += res.created.length;
    result.bills_updated += res.updated.length;
    result.bills_skipped += res.skipped.length;
    if (res.customer) {
      if (res.customer.outcome === "created") result.customer_bills_created++;
      else if (res.customer.outcome === "updated") result.customer_bills_updated++;
      else result.customer_bills_skipped++;
    }
    finishCounts(result, plan, estimated);
    for (const bill of res.created) await notifyTenant(deps, bill, plan.station, period.text);
    return true;
  }
  return false;
}

function finishCounts(result: BillingResult, _plan: StationPlan, estimated: number): void {
  result.stations_processed++;
  result.bills_estimated += estimated;
  result.total_bills_created = result.bills_created + result.customer_bills_created;
  result.total_bills_updated = result.bills_updated + result.customer_bills_updated;
}

/** Tells the unit's tenant that a bill was created (in the tenant's language). */
async function notifyTenant(
  deps: Deps,
  bill: StoredUnitBill,
  station: StoredDevice,
  period: string,
): Promise<void> {
  if (bill.tenant_id === null) return;
  const tenant = await getUser(deps.kv, bill.tenant_id);
  if (!tenant) return;
  const t = deps.i18n.t(tenant.language ?? "es");
  const amount = (bill.total_cost / 100).toFixed(2);
  await createNotification(deps.kv, {
    user_id: tenant.id,
    type: "bill_created",
    priority: "medium",
    title: t("billing.notifications.bill_created_title", { period }),
    message: t("billing.notifications.bill_created_message", {
      period,
      station: station.name,
      unit: bill.unit_id,
      amount,
      currency: bill.currency,
      due: bill.payment_due_date,
    }),
    subject_id: `bill:${bill.id}`,
  }, deps.now());
}
