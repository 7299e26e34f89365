/**
 * Billed demand of CFE's business tariffs (issue 34): the highest 15-minute average power of
 * a period, overall and in the punta band, and the demands the $/kW charges are billed on.
 *
 * - **Distribution demand**: the period's highest 15-minute average (kW).
 * - **Capacity demand**: `max(kW punta, floor % × the highest demand of the last 12 months)`,
 *   the zone's floor (70 % reproduces real GDMTH bills' capacity charge to the cent). CFE's
 *   official formula was not found: for those bills `min(DP, kWh / (24 · days · FC))` with
 *   FC ≈ 0.57 gives the same figure, so the data cannot tell the two apart; the floor is
 *   therefore a zone setting (0: capacity on the punta demand alone).
 *
 * Pure: the power points come from the caller (kW per 15-minute bucket, at its start).
 */
import { bandAt, type BandSchedule } from "./tou.ts";
import { localDateTime } from "./local_time.ts";

/** The highest demand of a period and when it happened. */
export interface DemandPeak {
  kw: number;
  /** Start of its 15-minute interval (epoch ms); null when the period had no reading. */
  at: number | null;
  /** The same in the business time zone, `YYYY-MM-DD HH:MM` (what the bill shows). */
  local: string | null;
}

/** A period's peaks: overall and in the punta band. */
export interface PeriodDemand {
  max: DemandPeak;
  punta: DemandPeak;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The peaks of 15-minute average power points (kW) of a period; the first of equal maxima. */
export function periodDemand(
  schedule: BandSchedule,
  points: readonly { ts: number; value: number }[],
  offset: number,
): PeriodDemand {
  const max: DemandPeak = { kw: 0, at: null, local: null };
  const punta: DemandPeak = { kw: 0, at: null, local: null };
  for (const p of points) {
    const kw = round3(p.value);
    const peak = { kw, at: p.ts, local: localDateTime(p.ts, offset) };
    if (kw > max.kw || max.at === null) Object.assign(max, peak);
    if (bandAt(schedule, p.ts, offset) === "punta" && (kw > punta.kw || punta.at === null)) {
      Object.assign(punta, peak);
    }
  }
  return { max, punta };
}

/**
 * The capacity demand (kW): the punta peak, or `floorPercent` of the highest demand of the
 * 12 months ending with this period (`yearMaxKw`, this period's included) when larger.
 */
export function capacityDemand(puntaKw: number, yearMaxKw: number, floorPercent: number): number {
  return round3(Math.max(puntaKw, yearMaxKw * floorPercent / 100));
}
