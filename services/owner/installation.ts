/**
 * An owner's installation (spec 001 section 2, "Customer installation detail"): the station,
 * its units with the selected month's energy and phase split, the month's energy, the billing
 * summary of the month (the finalized station bill) and the total profit of all time.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceView, MeasurementKey } from "../../core/devices.ts";
import type { Zone } from "../../core/zone.ts";
import { clockOf } from "../platform/clock.ts";
import { bimonthlyPeriod, parsePeriod } from "../../core/periods.ts";
import { phaseSplit } from "../../core/owner_rules.ts";
import type { StoredCustomerBill } from "../../db/bills.ts";
import { listCustomerBills } from "../../db/bills.ts";
import { stationContext, stationReport } from "../reports/mod.ts";
import { type OwnerTotals, stationOwnerProfit } from "../finances/mod.ts";
import { ownerStation } from "./stations.ts";
import { type MeteredSensor, type UnitMeters, unitMeters } from "../devices/meter_usage.ts";

/** A unit of the installation: its meter, the month's energy, and phases A, B, C (kWh). */
export interface InstallationUnit {
  sensor: DeviceView;
  name: string;
  tenant: string | null;
  monthKwh: number;
  phases: number[];
}

/** The month's station bill as the billing summary shows it (cents). */
interface BillingSummary {
  period: string;
  energy: number;
  commission: number;
  fee: number;
  tax: number;
  total: number;
  currency: string;
}

/** Everything the installation page shows. */
export interface Installation {
  station: DeviceView;
  zone: Zone | null;
  month: string;
  units: InstallationUnit[];
  monthKwh: number;
  billing: BillingSummary | null;
  /**
   * The owner's profit over every finalized period (cents; services/finances
   * `stationOwnerProfit`, in the zone's currency); null when no station bill is finalized yet.
   */
  totalProfit: { cents: number; currency: string } | null;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function counter(
  meters: Promise<UnitMeters>,
  key: MeasurementKey,
  from: number,
  to: number,
) {
  // A failed read rejects (data unavailable), never counts as no energy.
  if (to <= from) return 0;
  return await (await meters).counterDelta(key, from, to);
}

/**
 * The energy of a sensor's unit over a month, across the meters it had: total and phases
 * (the 40/35/25 split as fallback).
 */
export async function meterMonth(deps: Deps, sensor: MeteredSensor, month: string) {
  const p = parsePeriod(month);
  const clock = clockOf(deps);
  const b = clock.monthBounds(p.year, p.months[0]);
  const to = Math.min(b.to, clock.now());
  const meters = unitMeters(deps, sensor);
  meters.catch(() => {}); // a failed read rejects at its first use below
  const read = (key: MeasurementKey) => counter(meters, key, b.from, to);
  const total = r3(await read("total_energy_kwh"));
  const measured: number[] = [];
  for (const ph of ["a", "b", "c"] as const) {
    measured.push(r3(await read(`phase_${ph}_energy_kwh`)));
  }
  return { total, phases: phaseSplit(total, measured) };
}

/** The period billing uses for `month`: the month, or the pair holding it. */
function billingPeriod(zone: Zone | null, month: string): string {
  const p = parsePeriod(month);
  return zone?.billing_type === "bimonthly" ? bimonthlyPeriod(p.year, p.months[0]) : month;
}

function summaryOf(bill: StoredCustomerBill | null, period: string): BillingSummary | null {
  if (!bill || !bill.is_finalized) return null;
  return {
    period,
    energy: bill.energy_consumption,
    commission: bill.commission_amount,
    fee: bill.fee_amount,
    tax: bill.tax_amount,
    total: bill.total_amount,
    currency: bill.currency,
  };
}

/** The caller's installation `id` in `month` (`YYYY-MM`); not found when not theirs. */
export async function installation(
  deps: Deps,
  user: User,
  id: number,
  month: string,
): Promise<Installation> {
  const { station, zone, sensors } = await ownerStation(deps, user, id);
  const stationUnits = station.config.station?.units ?? [];
  const units: InstallationUnit[] = [];
  for (const s of sensors) {
    const unitId = s.config.sensor?.unit_id ?? null;
    const unit = stationUnits.find((u) => u.id === unitId);
    const m = await meterMonth(deps, s, month);
    units.push({
      sensor: s,
      name: unit?.name || unitId || s.name,
      tenant: s.tenant?.full_name ?? null,
      monthKwh: m.total,
      phases: m.phases,
    });
  }
  const ctx = await stationContext(deps, id);
  const period = billingPeriod(zone, month);
  const finalized = (await listCustomerBills(deps.kv, id)).filter((b) => b.is_finalized);
  let billing: BillingSummary | null = null;
  if (ctx) {
    const bill = finalized.find((b) => (b.billing_month ?? b.billing_period) === period);
    if (bill) billing = summaryOf((await stationReport(deps, ctx, period)).customerBill, period);
  }
  // The owner's profit of all time, per currency, from the finance service (one rule).
  const profits = finalized.length
    ? await stationOwnerProfit(deps, id)
    : new Map<string, OwnerTotals>();
  const profitCurrency = profits.has(zone?.currency ?? "")
    ? zone!.currency
    : [...profits.keys()][0];
  return {
    station,
    zone,
    month,
    units,
    monthKwh: r3(units.reduce((s, u) => s + u.monthKwh, 0)),
    billing,
    totalProfit: profitCurrency === undefined
      ? null
      : { cents: profits.get(profitCurrency)!.profit, currency: profitCurrency },
  };
}
