/**
 * Billing and tenancies (issue 24): which finalized bill a change of tenancies would contradict,
 * and the final bill of a move-out. A tenancy may be dated back while the part of the period it
 * changes is not finalized; a move-out may be billed at once, and the rest of the period
 * follows at the run (the run leaves the finalized part alone, core/bill.ts `billSlot`).
 */
import type { Deps } from "../deps.ts";
import { clockOf } from "../platform/clock.ts";
import { bimonthlyPeriod, monthlyPeriod, parsePeriod } from "../../core/periods.ts";
import { billSlot, periodOfBill } from "../../core/bill.ts";
import { listUnitBillsSince, type StoredUnitBill } from "../../db/bills.ts";
import { runBilling } from "./run.ts";
import type { BillingResult } from "./run.ts";

/** The end (epoch ms) of the time a unit bill covers: its part's, or its period's. */
function coveredUntil(deps: Deps, b: StoredUnitBill): number {
  if (b.tenancy_to) return Date.parse(b.tenancy_to);
  return clockOf(deps).periodBounds(parsePeriod(periodOfBill(b))).to;
}

/**
 * The first finalized bill of a unit that covers time after `at`, or null: a change of its
 * tenancies from `at` on would contradict it (recalculate or delete it first).
 */
export async function finalizedBillAfter(
  deps: Deps,
  stationId: number,
  unitId: string,
  at: number,
): Promise<StoredUnitBill | null> {
  const p = clockOf(deps).localParts(at);
  // A bimonthly period holding the month starts in it or the month before.
  const first = p.month === 1 ? monthlyPeriod(p.year - 1, 12) : monthlyPeriod(p.year, p.month - 1);
  const bills = await listUnitBillsSince(deps.kv, stationId, first);
  return bills.find((b) => b.unit_id === unitId && b.is_finalized && coveredUntil(deps, b) > at) ??
    null;
}

/**
 * The final bill of a tenancy `[from, at)` that ended at `at`: the station's bills of the
 * period holding the tenancy's last instant are written as a run writes them (drafts for the
 * open period), and the bill of the tenancy's part is finalized with its due date and its
 * tenant told.
 */
export async function billMoveOut(
  deps: Deps,
  station: { id: number; zone_id: number | null },
  unitId: string,
  billing: "monthly" | "bimonthly",
  tenancy: { from: number; to: number },
  author: string | null,
): Promise<BillingResult | null> {
  const at = tenancy.to;
  if (station.zone_id === null) return null;
  const clock = clockOf(deps);
  const last = clock.localParts(at - 1);
  const period = billing === "monthly"
    ? monthlyPeriod(last.year, last.month)
    : bimonthlyPeriod(last.year, last.month);
  const bounds = clock.periodBounds(parsePeriod(period));
  return await runBilling(deps, station.zone_id, period, {
    author,
    only: {
      stationId: station.id,
      finalizeSlots: [billSlot(unitId, Math.max(tenancy.from, bounds.from), bounds.from)],
    },
  });
}
