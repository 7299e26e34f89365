/**
 * The admin's bill lists (spec 001 section 2, unit and station billing; issue 9): the zones to
 * pick from, the years that have bills, and the rows of a zone and period with the names the
 * screen and its CSV export show. Amounts stay in cents; the page and the CSV format them.
 */
import type { Deps } from "../deps.ts";
import type { HighConsumption } from "../../core/dac.ts";
import { type MissingReadings, periodOfBill } from "../../core/bill.ts";
import { type ListStatus, listStatus } from "../../core/bill_status.ts";
import {
  amountDue,
  deleteBlocker,
  type PaymentStatus,
  visibleToTenant,
} from "../../core/payment.ts";
import type { PeriodKind } from "../../core/periods.ts";
import { tenancyDates } from "../../core/tenancy.ts";
import { clockOf } from "../platform/clock.ts";
import { type ListQuery, type Page, pageOf, sortRows } from "../../core/paging.ts";
import { listZones } from "../../db/zones.ts";
import { getDevices } from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { fullNames } from "../../db/users.ts";
import {
  billedPeriods,
  getUnitBill,
  listCustomerBillsOfZone,
  type StoredUnitBill,
  unitBillCounts,
  type UnitBillRef,
  unitBillRefs,
  unitBillsAt,
} from "../../db/bills.ts";

/** A zone as the pickers need it. */
export interface ZoneChoice {
  id: number;
  name: string;
  billing_type: PeriodKind;
}

/** The zones to bill, optionally of one billing type. */
export async function zoneChoices(deps: Deps, kind?: PeriodKind): Promise<ZoneChoice[]> {
  return (await listZones(deps.kv))
    .filter((z) => kind === undefined || z.billing_type === kind)
    .map((z) => ({ id: z.id, name: z.name, billing_type: z.billing_type }));
}

/** One unit bill as the admin's list shows it (amounts in cents). */
export interface UnitBillRow {
  id: number;
  period: string;
  station_id: number;
  station: string;
  unit_id: string;
  unit: string;
  /** The tenant's full name, or null (not assigned). */
  tenant: string | null;
  energy_kwh: number;
  total_cost: number;
  amount_due: number;
  currency: string;
  status: ListStatus;
  is_finalized: boolean;
  payment_status: PaymentStatus;
  payment_due_date: string | null;
  payment_date: string | null;
  /** Whether the admin may delete it now, and record a payment for it. */
  can_delete: boolean;
  can_record_payment: boolean;
  /** The high-consumption (DAC) fact of the bill, when its zone sets a limit. */
  high_consumption: HighConsumption | null;
  /** The tenancy's part of the period (local dates, the last one included), when split. */
  tenancy: { from: string; to: string } | null;
  /** Days of the bill without readings of its meter ("no readings for 31 of 31 days"). */
  missing_readings: MissingReadings | null;
}

/** One station bill as the admin's list shows it (amounts in cents). */
export interface StationBillRow {
  id: number;
  station_id: number;
  kind: PeriodKind;
  period: string;
  station: string;
  /** The customer's full name, or null. */
  customer: string | null;
  energy_kwh: number;
  commission: number;
  fee: number;
  tax: number;
  total: number;
  currency: string;
  is_finalized: boolean;
}

async function stationsOf(deps: Deps, ids: Iterable<number>): Promise<Map<number, StoredDevice>> {
  const devices = await getDevices(deps.kv, [...new Set(ids)]);
  return new Map(devices.map((d) => [d.id, d]));
}

/**
 * The years in which each zone has unit (or station) bills: zone id → years. Read from the
 * zone and period counters (a few entries per zone), not from the bills.
 */
export async function billYears(
  deps: Deps,
  mode: "units" | "stations",
): Promise<Map<number, number[]>> {
  const out = new Map<number, Set<number>>();
  for (const { zone_id, period } of await billedPeriods(deps.kv, mode)) {
    const year = Number(period.slice(0, 4));
    if (!Number.isInteger(year)) continue;
    let years = out.get(zone_id);
    if (!years) out.set(zone_id, years = new Set());
    years.add(year);
  }
  return new Map([...out].map(([zone, years]) => [zone, [...years]]));
}

/** The unit bills of a zone and period as rows; `current` tells whether it is the open period. */
export async function unitBillRows(
  deps: Deps,
  zoneId: number,
  period: string,
  current: boolean,
): Promise<UnitBillRow[]> {
  const bills = await unitBillsAt(
    deps.kv,
    zoneId,
    period,
    await unitBillRefs(deps.kv, zoneId, period),
  );
  return await rowsOf(deps, bills, current);
}

/** The sort keys of the unit bill list (the first keeps the stored order). */
export const UNIT_BILL_SORTS = [
  "default",
  "station",
  "unit",
  "tenant",
  "energy",
  "total",
  "status",
] as const;
/** A sort key of the unit bill list. */
type UnitBillSort = typeof UNIT_BILL_SORTS[number];

/** A page of a zone and period's unit bills, and the counts of the tiles. */
interface UnitBillPage extends Page<UnitBillRow> {
  finalized: number;
}

/**
 * One page of the unit bills of a zone and period, through the store's zone index: the counts
 * come from its counters; in the stored order only the index entries up to the page are read;
 * sorted by a bill's own field, every index entry of the zone and period (one small entry per
 * bill, no bill); sorted by a name, those and the names of every station and tenant of the
 * zone and period. Only the page's bills are read, and rows are built for them only.
 */
export async function unitBillPage(
  deps: Deps,
  zoneId: number,
  period: string,
  current: boolean,
  query: ListQuery<UnitBillSort>,
): Promise<UnitBillPage> {
  const { total, finalized } = await unitBillCounts(deps.kv, zoneId, period);
  const { page, pages, start, end } = pageOf(total, query);
  let refs: UnitBillRef[];
  if (query.sort === "default") {
    refs = (await unitBillRefs(deps.kv, zoneId, period, end)).slice(start, end);
  } else {
    const all = await unitBillRefs(deps.kv, zoneId, period);
    let key: (r: UnitBillRef) => string | number | null;
    if (query.sort === "station" || query.sort === "unit" || query.sort === "tenant") {
      const names = await namesOf(deps, all);
      key = query.sort === "station"
        ? (r) => names.station(r)
        : query.sort === "unit"
        ? (r) => names.unit(r)
        : (r) => names.tenant(r);
    } else {
      key = query.sort === "energy"
        ? (r) => r.energy_consumption
        : query.sort === "total"
        ? (r) => r.total_cost
        : (r) => r.status;
    }
    refs = sortRows(all, key, query.dir, (r) => r.id).slice(start, end);
  }
  const bills = await unitBillsAt(deps.kv, zoneId, period, refs);
  return {
    rows: await rowsOf(deps, bills, current),
    total,
    page,
    size: query.size,
    pages,
    finalized,
  };
}

/** One unit bill as a row (for the payment form), or null when it does not exist. */
export async function unitBillRow(deps: Deps, id: number): Promise<UnitBillRow | null> {
  const bill = await getUnitBill(deps.kv, id);
  return bill ? (await rowsOf(deps, [bill], false))[0] : null;
}

/** The names a unit bill row shows: its station's, its unit's and its tenant's. */
async function namesOf(
  deps: Deps,
  bills: readonly Pick<StoredUnitBill, "station_id" | "unit_id" | "tenant_id">[],
) {
  const stations = await stationsOf(deps, bills.map((b) => b.station_id));
  const tenants = await fullNames(deps.kv, bills.map((b) => b.tenant_id));
  type Named = Pick<StoredUnitBill, "station_id" | "unit_id" | "tenant_id">;
  return {
    station: (b: Named) => stations.get(b.station_id)?.name ?? `#${b.station_id}`,
    unit: (b: Named) =>
      stations.get(b.station_id)?.config.station?.units.find((u) => u.id === b.unit_id)?.name ??
        b.unit_id,
    tenant: (b: Named) => b.tenant_id === null ? null : tenants.get(b.tenant_id) ?? null,
  };
}

async function rowsOf(
  deps: Deps,
  bills: StoredUnitBill[],
  current: boolean,
): Promise<UnitBillRow[]> {
  const names = await namesOf(deps, bills);
  const now = deps.now();
  return bills.map((b) => ({
    period: periodOfBill(b),
    id: b.id,
    station_id: b.station_id,
    station: names.station(b),
    unit_id: b.unit_id,
    unit: names.unit(b),
    tenant: names.tenant(b),
    energy_kwh: b.energy_consumption,
    total_cost: b.total_cost,
    amount_due: amountDue(b),
    currency: b.currency,
    status: listStatus(b, current),
    is_finalized: b.is_finalized,
    payment_status: b.payment_status,
    payment_due_date: b.payment_due_date,
    payment_date: b.payment_date,
    can_delete: deleteBlocker(b, now) === null,
    can_record_payment: visibleToTenant(b) && b.payment_status !== "paid",
    high_consumption: b.calculation_details.high_consumption ?? null,
    tenancy: tenancyDates(b, clockOf(deps).offsetMinutes()),
    missing_readings: b.missing_readings,
  }));
}

/** The station bills of a zone and period as rows. */
export async function stationBillRows(
  deps: Deps,
  zoneId: number,
  period: string,
): Promise<StationBillRow[]> {
  const bills = await listCustomerBillsOfZone(deps.kv, zoneId, period);
  const stations = await stationsOf(deps, bills.map((b) => b.station_id));
  const customers = await fullNames(deps.kv, bills.map((b) => b.customer_id));
  return bills.map((b) => ({
    id: b.id,
    station_id: b.station_id,
    kind: b.billing_month ? "monthly" : "bimonthly",
    period: periodOfBill(b),
    station: stations.get(b.station_id)?.name ?? `#${b.station_id}`,
    customer: b.customer_id === null ? null : customers.get(b.customer_id) ?? null,
    energy_kwh: b.energy_consumption,
    commission: b.commission_amount,
    fee: b.fee_amount,
    tax: b.tax_amount,
    total: b.total_amount,
    currency: b.currency,
    is_finalized: b.is_finalized,
  }));
}
