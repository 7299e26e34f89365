/**
 * The owner's billing overview (spec 001 sections 2, 3 and 7; issue 13): the billing type of
 * the owner's stations, the figures of a year per currency and per period, and the bills of a
 * period, only of the caller's own stations and only finalized bills. The arithmetic is
 * core/finances.ts's (shared with the admin's finances); amounts stay in cents.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { PeriodKind } from "../../core/periods.ts";
import { type CustomerBill, periodOfBill, type UnitBill } from "../../core/bill.ts";
import {
  marginPercent,
  type OwnerTotals,
  ownerTotals,
  passes,
  summarize,
} from "../../core/finances.ts";
import { readStationFacts } from "../../db/bill_facts.ts";
import { listCustomerBills, listUnitBills } from "../../db/bills.ts";
import { getDevices, stationIdsOfCustomer } from "../../db/devices.ts";
import { getZone } from "../../db/zones.ts";
import { fullNames } from "../../db/users.ts";

/** The billing type and currency of the owner's stations (of the first with a zone). */
interface OwnerBillingType {
  billing_type: PeriodKind;
  currency: string;
}

/** The stations the caller owns (none unless a customer). */
export async function ownStations(deps: Deps, user: User): Promise<number[]> {
  return user.role === "customer" ? await stationIdsOfCustomer(deps.kv, user.id) : [];
}

/** The billing type of the caller's stations: monthly in MXN when none has a zone. */
export async function ownerBillingType(deps: Deps, user: User): Promise<OwnerBillingType> {
  for (const s of await getDevices(deps.kv, await ownStations(deps, user))) {
    const zone = s.zone_id === null ? null : await getZone(deps.kv, s.zone_id);
    if (zone) return { billing_type: zone.billing_type, currency: zone.currency };
  }
  return { billing_type: "monthly", currency: "MXN" };
}

/** One period of the owner's year (primary currency; cents). */
interface OwnerPeriod {
  period: string;
  revenue: number;
  profit: number;
  invoice_count: number;
}

/** The owner's year (spec 001 section 3, "Customer billing overview"); cents. */
export interface OwnerOverview extends OwnerBillingType {
  year: number;
  yearly_overview: {
    currency_totals: Record<string, OwnerTotals>;
    total_invoices: number;
    total_customer_bills: number;
    paid_bills: number;
    primary_currency: string;
    total_revenue: number;
    total_profit: number;
    payment_revenue: number;
    payment_profit: number;
    profit_margin: number;
    payment_profit_margin: number;
    currency: string;
  };
  period_data: OwnerPeriod[];
}

/** The caller's figures of `year`, per currency, and per period in the primary currency. */
export async function ownerOverview(deps: Deps, user: User, year: number): Promise<OwnerOverview> {
  const type = await ownerBillingType(deps, user);
  const rows = summarize(await readStationFacts(deps.kv, await ownStations(deps, user)))
    .filter((r) => passes(r, { year }));
  const totals = ownerTotals(rows);
  const primary = totals.has(type.currency) || totals.size === 0
    ? type.currency
    : [...totals.keys()].sort()[0];
  const main = totals.get(primary) ??
    { revenue: 0, profit: 0, payment_revenue: 0, payment_profit: 0 };
  const periods = [...new Set(rows.map((r) => r.period))].sort();
  const period_data = periods.map((period) => {
    const of = rows.filter((r) => r.period === period && r.currency === primary);
    const t = ownerTotals(of).get(primary);
    return {
      period,
      revenue: t?.revenue ?? 0,
      profit: t?.profit ?? 0,
      invoice_count: of.reduce((n, r) => n + r.units, 0),
    };
  });
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    ...type,
    year,
    yearly_overview: {
      currency_totals: Object.fromEntries(totals),
      total_invoices: sum((r) => r.units),
      total_customer_bills: sum((r) => r.customers),
      paid_bills: sum((r) => r.paid_units),
      primary_currency: primary,
      total_revenue: main.revenue,
      total_profit: main.profit,
      payment_revenue: main.payment_revenue,
      payment_profit: main.payment_profit,
      profit_margin: marginPercent(main.profit, main.revenue),
      payment_profit_margin: marginPercent(main.payment_profit, main.payment_revenue),
      currency: primary,
    },
    period_data: period_data.filter((p) => p.invoice_count > 0),
  };
}

/** A unit bill of the owner's period, with the names the table shows. */
interface OwnerUnitBill {
  bill: UnitBill;
  station_name: string;
  unit_name: string;
  tenant_name: string | null;
}

/** A station bill of the owner's period, with the station's name. */
interface OwnerCustomerBill {
  bill: CustomerBill;
  station_name: string;
}

/** The bills of one period of the owner. */
export interface OwnerPeriodBills {
  unit_bills: OwnerUnitBill[];
  customer_bills: OwnerCustomerBill[];
}

/** The caller's finalized unit and station bills of `period`. */
export async function ownerPeriodBills(
  deps: Deps,
  user: User,
  period: string,
): Promise<OwnerPeriodBills> {
  return (await ownerBills(deps, user, (p) => p === period)).get(period) ??
    { unit_bills: [], customer_bills: [] };
}

/** The caller's finalized unit and station bills of `year`, by period. */
export function ownerYearBills(
  deps: Deps,
  user: User,
  year: number,
): Promise<Map<string, OwnerPeriodBills>> {
  return ownerBills(deps, user, (p) => p.startsWith(`${year}-`));
}

async function ownerBills(
  deps: Deps,
  user: User,
  wanted: (period: string) => boolean,
): Promise<Map<string, OwnerPeriodBills>> {
  const ids = await ownStations(deps, user);
  const stations = new Map((await getDevices(deps.kv, ids)).map((s) => [s.id, s]));
  const units: UnitBill[] = [];
  const customers: CustomerBill[] = [];
  for (const id of ids) {
    for (const b of await listUnitBills(deps.kv, id)) {
      if (b.is_finalized && wanted(periodOfBill(b))) units.push(b);
    }
    for (const b of await listCustomerBills(deps.kv, id)) {
      if (b.is_finalized && wanted(periodOfBill(b))) customers.push(b);
    }
  }
  const tenants = await fullNames(deps.kv, units.map((b) => b.tenant_id));
  const nameOf = (id: number) => stations.get(id)?.name ?? `#${id}`;
  const out = new Map<string, OwnerPeriodBills>();
  const of = (period: string) => {
    let r = out.get(period);
    if (!r) out.set(period, r = { unit_bills: [], customer_bills: [] });
    return r;
  };
  for (const bill of units) {
    of(periodOfBill(bill)).unit_bills.push({
      bill,
      station_name: nameOf(bill.station_id),
      unit_name: stations.get(bill.station_id)?.config.station?.units.find((u) =>
        u.id === bill.unit_id
      )?.name ?? bill.unit_id,
      tenant_name: bill.tenant_id === null ? null : tenants.get(bill.tenant_id) ?? null,
    });
  }
  for (const bill of customers) {
    of(periodOfBill(bill)).customer_bills.push({ bill, station_name: nameOf(bill.station_id) });
  }
  return out;
}

/**
 * One station's all-time owner figures per currency (finalized bills; cents): what its tenants
 * were billed and paid, and the owner's profit on both (the installation page's total profit).
 */
export async function stationOwnerProfit(
  deps: Deps,
  stationId: number,
): Promise<Map<string, OwnerTotals>> {
  return ownerTotals(summarize(await readStationFacts(deps.kv, [stationId])));
}
