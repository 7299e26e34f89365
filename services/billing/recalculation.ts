/**
 * Recalculation of a unit bill (issue 4; spec 001 sections 4, 5 "Recalculation dialog", 7):
 * `PUT /api/bills/{id}` (monthly) and `/api/bimester-bills/{id}` (bimonthly), admin only, body
 * `{override_reason, recalculation_method, energy_consumption?}`.
 *
 * Allowed only for an existing bill of a past period (the period ended before now in the
 * business time zone). The new energy comes from the method:
 * - `method_1_extended_range`: the meter's counter delta over a wider window, the period plus
 *   one period length before and after it (clamped to now), scaled to the period: delta ×
 *   period length / span the readings cover in the window (first hour with a reading to the end
 *   of the last one). Needs at least one day of readings. (The rule of core/estimation.ts,
 *   shared with the billing run's automatic estimation.)
 * - `method_2_historical_average`: the average of the unit's measured (not estimated) bills of
 *   the 3 periods before it (estimation.ts, as the billing run).
 * - `method_3_zone_average`: the average of this period's measured bills of the zone (other
 *   units; estimated and recalculated bills do not count).
 * - `manual_input`: `energy_consumption`, parsed by core/consumption_input.ts.
 * The bill is recomputed with the price versions of its period, day by day (a version made
 * later for a later month does not reach back; for a deleted zone, those the bill kept), and keeps
 * who (`author` = the admin's email, `created_by` = the admin's id), how
 * (`recalculation_method`) and why (`override_reason`); it becomes finalized, so its status is
 * Recalculated (spec 001 section 4) and billing runs leave it alone. A draft finalized this way
 * gets its due date and its tenant's `bill_created` notice. A paid bill, or one waiting on a
 * live SPEI reference, is refused (its amount is what the tenant is paying). The station's
 * customer bill of the period is recomputed from its unit bills in the same atomic commit (when
 * one exists; its finalized flag is kept). Bad input writes nothing.
 */
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import { computeCustomerBill } from "../../core/customer_bill.ts";
import { parsePeriod } from "../../core/periods.ts";
import { RECALC_INPUT_ERRORS, type RecalcRequest } from "../../core/billing_input.ts";
import { getZone, zoneVersions } from "../../db/zones.ts";
import { versionAtEnd, type ZoneVersion } from "../../core/zone_versions.ts";
import { computePartBill } from "../../core/part_bill.ts";
import { getDevice } from "../../db/devices.ts";
import {
  commitPeriodChange,
  getUnitBillEntry,
  listUnitBills,
  readPeriodBills,
  type StoredUnitBill,
} from "../../db/bills.ts";
import { billAmounts, finalization, restatedCustomerBill } from "../../core/bill.ts";
import { deleteBlocker, reopenNothingDue } from "../../core/payment.ts";
import { clockOf } from "../platform/clock.ts";
import { conflict, invalid, notFound } from "../refusal.ts";
import { BILLING_ERRORS } from "./run.ts";
import { NoticeBatch } from "./notices.ts";
import { highConsumptionOf, previousUse } from "./dac.ts";
import { extendedRangeEstimate, historicalAverage } from "./estimation.ts";
import { recalculatedBusinessBill } from "./business.ts";

/** The recalculation methods of the dialog (core/billing_input.ts validates the request). */
export { RECALC_METHODS } from "../../core/billing_input.ts";

/** Locale keys of the refusals. */
export const RECALC_ERRORS = {
  ...RECALC_INPUT_ERRORS,
  notPast: "billing.recalculation.errors.not_past_period",
  noEstimate: "billing.recalculation.errors.no_estimate",
  conflict: "billing.recalculation.errors.conflict",
  billPaid: "billing.recalculation.errors.bill_paid",
  liveReference: "billing.errors.bill_live_reference",
  billNotFound: "billing.errors.bill_not_found",
  zoneNotFound: BILLING_ERRORS.zoneNotFound,
} as const;

/** Who recalculates. */
interface RecalcActor {
  id: number;
  email: string;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The price versions that price a bill's period: the zone's versions (a later version does not
 * reach back), else, for a zone deleted since, those the bill kept. Not found without either.
 */
async function periodVersions(deps: Deps, bill: StoredUnitBill): Promise<ZoneVersion[]> {
  const stored = await getZone(deps.kv, bill.zone_id);
  if (stored) return await zoneVersions(deps.kv, stored.id);
  const zone = bill.zone_snapshot;
  if (!zone) throw notFound(RECALC_ERRORS.zoneNotFound);
  const kept = zone.price_versions;
  return kept && kept.length > 0 ? kept : [{ applies_from: null, zone }];
}

async function zoneAverage(
  deps: Deps,
  bill: StoredUnitBill,
  period: string,
): Promise<number | null> {
  let sum = 0;
  let n = 0;
  for (const b of await listUnitBills(deps.kv)) {
    if (
      b.zone_id !== bill.zone_id || (b.billing_month ?? b.billing_period) !== period ||
      b.id === bill.id || b.is_estimation || b.recalculation_method !== null
    ) continue;
    sum += b.energy_consumption;
    n++;
  }
  return n === 0 ? null : round3(sum / n);
}

/**
 * Recalculates unit bill `id` of `kind`; answers the updated bill. Refuses (nothing written) a
 * period not past (invalid), an unknown bill or zone (not found), a paid bill or
 * one with a live SPEI reference, or one that kept changing meanwhile (conflict). The request
 * comes validated (core/billing_input.ts).
 */
export async function recalculateBill(
  deps: Deps,
  id: number,
  kind: "monthly" | "bimonthly",
  req: RecalcRequest,
  actor: RecalcActor,
): Promise<StoredUnitBill> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const entry = await getUnitBillEntry(deps.kv, id);
    const old = entry?.value;
    const periodText = kind === "monthly" ? old?.billing_month : old?.billing_period;
    if (!old || !periodText) throw notFound(RECALC_ERRORS.billNotFound);
    const period = parsePeriod(periodText);
    const clock = clockOf(deps);
    const bounds = clock.periodBounds(period);
    const now = clock.now();
    if (bounds.to > now) throw invalid({}, RECALC_ERRORS.notPast);
    const blocker = deleteBlocker(old, now);
    if (blocker) {
      throw conflict(blocker === "paid" ? RECALC_ERRORS.billPaid : RECALC_ERRORS.liveReference);
    }
    const versions = await periodVersions(deps, old);
    const zone = versionAtEnd(versions, period.text).zone;
    const energy = req.method === "manual_input"
      ? req.kwh
      : req.method === "method_1_extended_range"
      ? old.sensor_serial === null
        ? null
        : await extendedRangeEstimate(deps, old.sensor_serial, bounds)
      : req.method === "method_2_historical_average"
      ? await historicalAverage(deps.kv, old.station_id, old.unit_id, period)
      : await zoneAverage(deps, old, period.text);
    if (energy === null) {
      throw invalid({ recalculation_method: RECALC_ERRORS.noEstimate });
    }
    // A bill of a tenancy's part of the period (issue 24) is priced as that part; an estimate
    // of the whole period counts for the part's share of it.
    const part = old.tenancy_from && old.tenancy_to
      ? { from: Date.parse(old.tenancy_from), to: Date.parse(old.tenancy_to) }
      : null;
    const share = part ? (part.to - part.from) / (bounds.to - bounds.from) : 1;
    const billed = req.method === "manual_input" ? energy : round3(energy * share);
    const at = new Date(now).toISOString();
    // A business zone (issue 34) prices the new energy by its bands, demand and power factor,
    // read again from the meter's 15-minute data (estimated where it is missing).
    const computed = {
      ...await recalculatedBusinessBill(
        deps,
        old,
        zone,
        billed,
        period,
        part ?? bounds,
        clock.offsetMinutes(),
        computePartBill(
          versions,
          billed,
          { text: period.text, ...bounds, offsetMinutes: clock.offsetMinutes() },
          part ?? bounds,
        ),
      ),
      high_consumption: (zone.dac_limit_kwh ?? 0) > 0
        ? highConsumptionOf(
          zone,
          period,
          billed,
          await previousUse(deps.kv, old.station_id, old.unit_id, period),
        )
        : null,
    };
    let bill: StoredUnitBill = {
      ...old,
      ...billAmounts(computed),
      is_estimation: req.method !== "manual_input",
      estimation_method: req.method === "manual_input" ? null : req.method,
      recalculation_method: req.method,
      override_reason: req.reason,
      author: String(actor.id),
      created_by: String(actor.id),
      updated_at: at,
    };
    const newlyFinal = !old.is_finalized;
    if (newlyFinal) {
      const { change, ...fin } = finalization(at, clock.localParts(now));
      bill = { ...bill, ...fin, payment_history: [...old.payment_history, change] };
    } else if (old.payment_status === "paid") {
      // Marked paid for "nothing due" before such bills stayed pending: pending again.
      bill = reopenNothingDue(bill, at, String(actor.id));
    }

    // The station bill, recomputed from every unit bill of the station and period.
    const read = await readPeriodBills(deps.kv, old.station_id, period.text);
    if (!read.units.some((e) => e.value.id === id && e.versionstamp === entry!.versionstamp)) {
      continue;
    }
    const cust = read.customer.value;
    const customer = cust
      ? restatedCustomerBill(
        cust,
        computeCustomerBill(zone, read.units.map((e) => e.value.id === id ? bill : e.value)),
        at,
      )
      : undefined;
    const audit = auditStamp(deps, "billing.recalculate", `bill:${id}`, req.reason);
    if (!await commitPeriodChange(deps.kv, read, { set: [bill], customer }, audit)) continue;
    if (newlyFinal) await notifyFinalized(deps, bill);
    return bill;
  }
  throw conflict(RECALC_ERRORS.conflict);
}

/** The tenant's `bill_created` notice of a bill that recalculation finalized. */
async function notifyFinalized(deps: Deps, bill: StoredUnitBill): Promise<void> {
  const station = await getDevice(deps.kv, bill.station_id);
  if (!station) return;
  const batch = new NoticeBatch(deps);
  batch.add(bill, station);
  await batch.flush();
}
