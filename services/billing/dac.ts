/**
 * The high-consumption (DAC) fact of a unit bill: the unit's bills of the periods before,
 * read when the zone sets a limit, and the moving average of core/dac.ts.
 */
import { dacHistoryLength, type HighConsumption, highConsumption } from "../../core/dac.ts";
import { previousPeriods } from "../../core/estimation.ts";
import type { Period } from "../../core/periods.ts";
import type { Zone } from "../../core/zone.ts";
import { getUnitBillsOf } from "../../db/bills.ts";

/** kWh of a unit's bills in the periods before `period` within 12 months (null: no bill). */
export async function previousUse(
  kv: Deno.Kv,
  stationId: number,
  unitId: string,
  period: Period,
): Promise<(number | null)[]> {
  const bills = await getUnitBillsOf(
    kv,
    stationId,
    previousPeriods(period, dacHistoryLength(period)),
    unitId,
  );
  return bills.map((b) => b?.energy_consumption ?? null);
}

/** The fact for a bill of `kwh` under `zone`, or null when the zone sets no limit. */
export function highConsumptionOf(
  zone: Zone,
  period: Period,
  kwh: number,
  previous: readonly (number | null)[] | null,
): HighConsumption | null {
  return previous === null ? null : highConsumption(period, kwh, previous, zone.dac_limit_kwh ?? 0);
}
