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
 *   the 3 periods before it (services/estimation.ts, as the billing run).
 * - `method_3_zone_average`: the average of this period's measured bills of the zone (other
 *   units; estimated and recalculated bills do not count).
 * - `manual_input`: `energy_consumption`, parsed by core/consumption_input.ts.
 * The bill is recomputed with the zone snapshot it keeps (else the zone as it is now), and keeps
 * who (`author` = the admin's email, `created_by` = the admin's id), how
 * (`recalculation_method`) and why (`override_reason`); it becomes finalized, so its status is
 * Recalculated (spec 001 section 4) and billing runs leave it alone. The station's customer bill
 * of the period is recomputed from its unit bills in the same atomic commit (when one exists;
 * its finalized flag is kept). Bad input writes nothing.
 */
import { z } from "zod";
import type { Deps } from "./deps.ts";
import type { Zone } from "../core/zone.ts";
import { computeUnitBill } from "../core/tariff.ts";
import { computeCustomerBill } from "../core/customer_bill.ts";
import { parsePeriod } from "../core/periods.ts";
import { CONSUMPTION_ERRORS, parseConsumptionInput } from "../core/consumption_input.ts";
import { getZone } from "../db/zones.ts";
import type { StoredCustomerBill, StoredUnitBill } from "../db/bills.ts";
import { BILLING_ERRORS, periodBounds } from "./billing.ts";
import { extendedRangeEstimate, historicalAverage } from "./estimation.ts";

/** The recalculation methods of the dialog. */
export const RECALC_METHODS = [
  "method_1_extended_range",
  "method_2_historical_average",
  "method_3_zone_average",
  "manual_input",
] as const;
export type RecalcMethod = typeof RECALC_METHODS[number];

/** Locale keys of the refusals. */
export const RECALC_ERRORS = {
  invalidBody: "billing.recalculation.errors.invalid_body",
  methodRequired: "billing.recalculation.validation.select_method",
  reasonRequired: "billing.recalculation.validation.reason_required",
  notPast: "billing.recalculation.errors.not_past_period",
  noEstimate: "billing.recalculation.errors.no_estimate",
  conflict: "billing.recalculation.errors.conflict",
  billNotFound: "billing.errors.bill_not_found",
  zoneNotFound: BILLING_ERRORS.zoneNotFound,
  ...CONSUMPTION_ERRORS,
} as const;

/** A refused recalculation: nothing was written. `errors` maps fields to locale keys. */
export class RecalcError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly key: string,
    readonly errors: Record<string, string> = {},
  ) {
    super(key);
    this.name = "RecalcError";
  }
}

const bodySchema = z.object({
  override_reason: z.unknown().optional(),
  recalculation_method: z.unknown().optional(),
  energy_consumption: z.unknown().optional(),
});

/** A validated request. */
export interface RecalcRequest {
  reason: string;
  method: RecalcMethod;
  /** The manual kWh (manual_input only). */
  kwh: number | null;
}

/** Validates a body; RecalcError 400 with field errors otherwise. */
export function checkRecalcBody(body: unknown): RecalcRequest {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success || Array.isArray(body)) throw new RecalcError(400, RECALC_ERRORS.invalidBody);
  const { override_reason, recalculation_method, energy_consumption } = parsed.data;
  const errors: Record<string, string> = {};
  const reason = typeof override_reason === "string" ? override_reason.trim() : "";
  if (reason === "" || reason.length > 2000) errors.override_reason = RECALC_ERRORS.reasonRequired;
  const method = RECALC_METHODS.find((m) => m === recalculation_method);
  if (!method) errors.recalculation_method = RECALC_ERRORS.methodRequired;
  let kwh: number | null = null;
  if (method === "manual_input") {
    const input = parseConsumptionInput(energy_consumption);
    if (input.ok) kwh = input.kwh;
    else errors.energy_consumption = input.key;
  }
  const first = Object.values(errors)[0];
  if (first) throw new RecalcError(400, first, errors);
  return { reason, method: method!, kwh };
}

/** Who recalculates. */
export interface RecalcActor {
  id: number;
  email: string;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Zone snapshot as kept on a bill, or null when it is not a zone. */
function zoneOfSnapshot(snapshot: unknown): Zone | null {
  if (!snapshot || typeof snapshot !== "object") return null;
  const s = snapshot as Record<string, unknown>;
  if (typeof s.currency !== "string" || typeof s.base_tariff !== "number") return null;
  return { ...(s as unknown as Zone), id: String(s.id) };
}

async function zoneAverage(
  deps: Deps,
  bill: StoredUnitBill,
  period: string,
): Promise<number | null> {
  let sum = 0;
  let n = 0;
  for await (const e of deps.kv.list<StoredUnitBill>({ prefix: ["unit_bills"] })) {
    const b = e.value;
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
 * Recalculates unit bill `id` of `kind`; answers the updated bill. Throws {@link RecalcError}
 * (400 bad body or a period not past, 404 unknown bill or zone, 409 kept conflicting).
 */
export async function recalculateBill(
  deps: Deps,
  id: number,
  kind: "monthly" | "bimonthly",
  body: unknown,
  actor: RecalcActor,
): Promise<StoredUnitBill> {
  const req = checkRecalcBody(body);
  for (let attempt = 0; attempt < 3; attempt++) {
    const idx = await deps.kv.get<[number, string, string]>(["unit_bill_ids", id]);
    if (!idx.value) throw new RecalcError(404, RECALC_ERRORS.billNotFound);
    const entry = await deps.kv.get<StoredUnitBill>(["unit_bills", ...idx.value]);
    const old = entry.value;
    if (!old || old.id !== id) throw new RecalcError(404, RECALC_ERRORS.billNotFound);
    const periodText = kind === "monthly" ? old.billing_month : old.billing_period;
    if (periodText === null) throw new RecalcError(404, RECALC_ERRORS.billNotFound);
    const period = parsePeriod(periodText);
    const bounds = periodBounds(period, deps.config.utcOffsetMinutes);
    if (bounds.to > deps.now()) throw new RecalcError(400, RECALC_ERRORS.notPast);
    let zone = zoneOfSnapshot(old.zone_snapshot);
    if (!zone) {
      const now = await getZone(deps.kv, old.zone_id);
      if (!now) throw new RecalcError(404, RECALC_ERRORS.zoneNotFound);
      zone = { ...now, id: String(now.id) } as Zone;
    }
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
      throw new RecalcError(400, RECALC_ERRORS.noEstimate, {
        recalculation_method: RECALC_ERRORS.noEstimate,
      });
    }
    const computed = computeUnitBill(zone, energy, { period: period.text });
    const at = new Date(deps.now()).toISOString();
    const bill: StoredUnitBill = {
      ...old,
      energy_consumption: computed.energy_consumption,
      energy_cost: computed.energy_cost,
      base_tariff: computed.base_tariff,
      compensation_cost: computed.compensation_cost,
      tax_cost: computed.tax_cost,
      total_cost: computed.total_cost,
      currency: computed.currency,
      is_finalized: true,
      is_estimation: req.method !== "manual_input",
      estimation_method: req.method === "manual_input" ? null : req.method,
      recalculation_method: req.method,
      override_reason: req.reason,
      calculation_details: {
        pricing_mode: computed.pricing_mode,
        season: computed.season,
        winter_days: computed.winter_days,
        summer_days: computed.summer_days,
        tiers: computed.calculation_details,
      },
      author: actor.email,
      created_by: String(actor.id),
      updated_at: at,
    };

    const op = deps.kv.atomic().check(entry).check(idx).set(entry.key, bill);
    // The station bill, recomputed from every unit bill of the station and period.
    const custEntry = await deps.kv.get<StoredCustomerBill>([
      "customer_bills",
      old.station_id,
      period.text,
    ]);
    if (custEntry.value) {
      const units: StoredUnitBill[] = [];
      for await (
        const e of deps.kv.list<StoredUnitBill>({
          prefix: ["unit_bills", old.station_id, period.text],
        })
      ) {
        op.check(e);
        units.push(e.value.id === id ? bill : e.value);
      }
      const cb = computeCustomerBill(zone, units);
      op.check(custEntry).set(
        custEntry.key,
        {
          ...custEntry.value,
          energy_consumption: round3(cb.energy_consumption),
          commission_amount: cb.commission_amount,
          fee_amount: cb.fee_amount,
          tax_amount: cb.tax_amount,
          total_amount: cb.total_amount,
          currency: cb.currency,
          calculation_details: cb.calculation_details,
          updated_at: at,
        } satisfies StoredCustomerBill,
      );
    } else op.check(custEntry);
    if ((await op.commit()).ok) return bill;
  }
  throw new RecalcError(409, RECALC_ERRORS.conflict);
}
