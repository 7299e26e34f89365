/**
 * A tenant's bills with their station, location and unit: only their own finalized bills with
 * a total above 0 ({@link unitBillsFor}), of either billing type, newest period first.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { periodOfBill, type UnitBill } from "../../core/bill.ts";
import { unitBillsFor } from "../billing/mod.ts";
import { getDevices } from "../../db/devices.ts";

/** A bill as the tenant's lists show it (amounts in cents). */
export interface TenantBillRow {
  bill: UnitBill;
  period: string;
  station_name: string;
  /** False when the bill's station no longer exists (its name is then its id). */
  station_found: boolean;
  location: string;
  unit_name: string;
}

/** Filters of {@link tenantBillRows}. */
interface TenantBillFilter {
  /** A period (`YYYY-MM` or `YYYY-MM-MM`). */
  period?: string;
  /** A year: bills whose period is in it. */
  year?: number;
}

/** The caller's bills, newest period first (then newest id). */
export async function tenantBillRows(
  deps: Deps,
  user: User,
  f: TenantBillFilter,
): Promise<TenantBillRow[]> {
  if (user.role !== "user") return [];
  const bills = [
    ...await unitBillsFor(deps, user, { kind: "monthly", period: f.period ?? null }),
    ...await unitBillsFor(deps, user, { kind: "bimonthly", period: f.period ?? null }),
  ].filter((b) => f.year === undefined || periodOfBill(b).startsWith(`${f.year}-`));
  const stations = new Map(
    (await getDevices(deps.kv, [...new Set(bills.map((b) => b.station_id))])).map((s) => [s.id, s]),
  );
  return bills
    .map((b) => {
      const s = stations.get(b.station_id);
      const unit = s?.config.station?.units.find((u) => u.id === b.unit_id);
      return {
        bill: b,
        period: periodOfBill(b),
        station_name: s?.name ?? String(b.station_id),
        station_found: s !== undefined,
        location: s?.location ?? "",
        unit_name: unit?.name || b.unit_id,
      };
    })
    .sort((a, b) => b.period.localeCompare(a.period) || b.bill.id - a.bill.id);
}
