/**
 * The reads behind consumption estimation (rules in core/estimation.ts), shared by the
 * billing run and by recalculation: the extended range from the telemetry store and the
 * historical average of a unit's bills.
 */
import type { Deps } from "../deps.ts";
import {
  averageEnergy,
  extendedRangeEnergy,
  extendedWindow,
  HISTORY_PERIODS,
  hourlyCoverage,
  previousPeriods,
  type Range,
} from "../../core/estimation.ts";
import type { Period } from "../../core/periods.ts";
import { getUnitBillsOf } from "../../db/bills.ts";

/**
 * The extended-range energy (kWh) of a meter for `period` (core/estimation.ts), or null when
 * its readings do not allow it. `bothSides` asks for readings before and after the period.
 */
export async function extendedRangeEstimate(
  deps: Pick<Deps, "telemetry" | "now">,
  serial: string,
  period: Range,
  options: { bothSides?: boolean } = {},
): Promise<number | null> {
  const window = extendedWindow(period, deps.now());
  if (window.to <= window.from) return null;
  const points = await deps.telemetry.series(
    serial,
    "total_energy_kwh",
    window.from,
    window.to,
    "1h",
    "last",
  );
  const coverage = hourlyCoverage(points, window, period);
  if (!coverage || (options.bothSides && !(coverage.before && coverage.after))) return null;
  const delta = await deps.telemetry.counterDelta(
    serial,
    "total_energy_kwh",
    window.from,
    window.to,
  );
  return extendedRangeEnergy(period, coverage, delta, options);
}

/**
 * The average energy (kWh) of a unit's measured bills (not estimated) of the
 * {@link HISTORY_PERIODS} periods before `period`, or null when it has none.
 */
export async function historicalAverage(
  kv: Deno.Kv,
  stationId: number,
  unitId: string,
  period: Period,
): Promise<number | null> {
  const bills = await getUnitBillsOf(
    kv,
    stationId,
    previousPeriods(period, HISTORY_PERIODS),
    unitId,
  );
  return averageEnergy(
    bills.filter((b) => b !== null && !b.is_estimation).map((b) => b!.energy_consumption),
  );
}
