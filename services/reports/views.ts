/**
 * What the admin report pages show (spec 001 section 2, "Station report" and "Unit report"),
 * read from the devices, zones and bills: the station report of a period (bills, tenant and
 * customer summaries, profits) and the unit report of a year (period rows with their bills).
 */
import type { Deps } from "../deps.ts";
import type { Zone } from "../../core/zone.ts";
import { type StationUnit, type StoredDevice } from "../../core/devices.ts";
import type { DateParts, PeriodKind } from "../../core/periods.ts";
import { getDevice } from "../../db/devices.ts";
import { fullNames } from "../../db/users.ts";
import {
  getUnitBillOf,
  listUnitBills,
  readStationBills,
  type StoredCustomerBill,
  type StoredUnitBill,
} from "../../db/bills.ts";
import { periodsOfYear, periodTiming } from "../../core/reports.ts";
import { type ReportStatus, reportStatus } from "../../core/bill_status.ts";
import { currentZone, nameOf, periodUnitBills, unitTenant } from "./generate.ts";
import { tenancyDates } from "../../core/tenancy.ts";
import { clockOf } from "../platform/clock.ts";

/** A station and its zone as it is now. */
export interface StationContext {
  station: StoredDevice;
  zone: Zone | null;
  kind: PeriodKind;
}

/** The station of a report, or null when `id` is not a station. */
export async function stationContext(deps: Deps, id: number): Promise<StationContext | null> {
  const station = await getDevice(deps.kv, id);
  if (!station || station.type !== "station") return null;
  const zone = await currentZone(deps, station.zone_id);
  return { station, zone, kind: zone?.billing_type ?? "monthly" };
}

/** The station report of one period. */
export interface StationReportData {
  period: string;
  bills: StoredUnitBill[];
  customerBill: StoredCustomerBill | null;
  customerName: string | null;
  tenants: Map<number, string>;
  currency: string;
  totals: {
    energy: number;
    base_tariff: number;
    energy_cost: number;
    compensation_cost: number;
    tax_cost: number;
    total_cost: number;
  };
  /** Commission plus fees (null without a customer bill). */
  providerProfit: number | null;
  /** Tenant payments minus the customer bill's total (null without a customer bill). */
  customerProfit: number | null;
}

/** Reads the bills of a station and period with the summaries of the report. */
export async function stationReport(
  deps: Deps,
  ctx: StationContext,
  period: string,
): Promise<StationReportData> {
  const { station } = ctx;
  const units = station.config.station?.units ?? [];
  const read = await readStationBills(deps.kv, station.id, period, units.map((u) => u.id));
  const order = new Map(units.map((u, i) => [u.id, i]));
  const bills = (await periodUnitBills(deps, station.id, period))
    .sort((a, b) => (order.get(a.unit_id) ?? 99) - (order.get(b.unit_id) ?? 99));
  const customerBill = read.customer.value;
  const sum = (f: (b: StoredUnitBill) => number) => bills.reduce((s, b) => s + f(b), 0);
  const totals = {
    energy: Math.round(sum((b) => b.energy_consumption) * 1000) / 1000,
    base_tariff: sum((b) => b.base_tariff),
    energy_cost: sum((b) => b.energy_cost),
    compensation_cost: sum((b) => b.compensation_cost),
    tax_cost: sum((b) => b.tax_cost),
    total_cost: sum((b) => b.total_cost),
  };
  const customerNames = await fullNames(deps.kv, [
    customerBill?.customer_id ?? station.customer_id,
  ]);
  return {
    period,
    bills,
    customerBill,
    customerName: customerNames.values().next().value ?? null,
    tenants: await fullNames(deps.kv, bills.map((b) => b.tenant_id)),
    currency: bills[0]?.currency ?? customerBill?.currency ?? ctx.zone?.currency ?? "MXN",
    totals,
    providerProfit: customerBill ? customerBill.commission_amount + customerBill.fee_amount : null,
    customerProfit: customerBill ? totals.total_cost - customerBill.total_amount : null,
  };
}

/** One period row of the unit report. */
export interface PeriodRow {
  period: string;
  /** The bill of the part that starts the period (the whole period when not split). */
  bill: StoredUnitBill | null;
  /**
   * Every bill of the unit in the period, one per tenancy and vacant stretch, in time order,
   * when the unit changed hands in it (issue 24); empty otherwise.
   */
  parts: {
    bill: StoredUnitBill;
    tenant: string | null;
    /** Local dates of the part, its last day included. */
    dates: { from: string; to: string } | null;
  }[];
  future: boolean;
  current: boolean;
  past: boolean;
  status: ReportStatus;
}

/** The unit report of a year. */
interface UnitReportData {
  unit: StationUnit;
  tenant: string | null;
  rows: PeriodRow[];
}

/** Reads the rows of a unit's year, oldest first; null when the station has no such unit. */
export async function unitReport(
  deps: Deps,
  ctx: StationContext,
  unitId: string,
  year: number,
  today: DateParts,
): Promise<UnitReportData | null> {
  const unit = ctx.station.config.station?.units.find((u) => u.id === unitId);
  if (!unit) return null;
  const rows: PeriodRow[] = [];
  for (const period of periodsOfYear(ctx.kind, year)) {
    const all = (await listUnitBills(deps.kv, ctx.station.id, period))
      .filter((b) => b.unit_id === unit.id)
      .sort((a, b) => (a.tenancy_from ?? "").localeCompare(b.tenancy_from ?? ""));
    const stored = all.find((b) => b.part_key === null) ?? null;
    const parts = all.length > 1
      ? await Promise.all(
        all.map(async (b) => ({
          bill: b,
          tenant: await nameOf(deps, b.tenant_id),
          dates: tenancyDates(b, clockOf(deps).offsetMinutes()),
        })),
      )
      : [];
    // The bill names its author by account id; the report shows the name.
    const bill = stored && /^\d+$/.test(stored.author ?? "")
      ? { ...stored, author: await nameOf(deps, Number(stored.author)) }
      : stored;
    const timing = periodTiming(period, today);
    rows.push({ period, bill, parts, ...timing, status: reportStatus(bill, timing) });
  }
  const tenant = await nameOf(deps, await unitTenant(deps, ctx.station, unit.id));
  return { unit, tenant, rows };
}

/** The bill of a unit of a station for a period (the one a recalculation names), or null. */
export function unitBillOf(
  deps: Deps,
  stationId: number,
  period: string,
  unitId: string,
): Promise<StoredUnitBill | null> {
  return getUnitBillOf(deps.kv, stationId, period, unitId);
}
