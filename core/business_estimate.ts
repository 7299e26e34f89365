/**
 * A business bill's usage from the meter's 15-minute detail and the period's kWh (issue 34).
 * The energy counter (or an estimate) gives the period's kWh; the 15-minute average power
 * says how it splits across the time bands (each quarter's kWh is its average kW / 4).
 *
 * - Detail for the whole period: the kWh split in the detail's band shares (the same figures
 *   when the two agree to the Wh).
 * - Detail missing for more than an hour (a day without data, the counter still counting
 *   across it): the same split, and the bill says its bands were estimated.
 * - No detail at all: the kWh goes to the bands in the shares of the period's hours (a flat
 *   load), and the demand is the period's average power (kWh / hours) as no peak is known.
 *
 * The bill then says which parts were estimated (`bands`, `demand`). Pure.
 */
import { bandAt, type BandEnergy, BANDS, type BandSchedule, noBandEnergy } from "./tou.ts";
import type { PeriodDemand } from "./demand.ts";

const QUARTER = 900_000;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Quarter hours of `[from, to)` in each band. */
function quartersByBand(schedule: BandSchedule, from: number, to: number, offset: number) {
  const out = noBandEnergy();
  for (let ts = from; ts < to; ts += QUARTER) out[bandAt(schedule, ts, offset)]++;
  return out;
}

/** `total` split by the weights, to the Wh, the last band taking the rounding. */
function split(total: number, weights: BandEnergy): BandEnergy {
  const sum = BANDS.reduce((n, b) => n + weights[b], 0);
  const out = noBandEnergy();
  if (sum <= 0) return { ...out, base: round3(total) };
  let left = total;
  BANDS.forEach((b, i) => {
    out[b] = i === BANDS.length - 1 ? round3(left) : round3(total * weights[b] / sum);
    left -= out[b];
  });
  return out;
}

/** Quarters a detail may lack before its split is called estimated (an hour). */
const TOLERATED_GAP = 4;

/**
 * The bands, demand and which parts were estimated for a part of `totalKwh`; `detail.quarters`
 * is how many quarter hours had data, `expected` how many had passed.
 */
export function completeUsage(
  schedule: BandSchedule,
  detail: { bands: BandEnergy; demand: PeriodDemand; quarters: number; expected: number },
  totalKwh: number,
  part: { from: number; to: number },
  offset: number,
): { bands: BandEnergy; demand: PeriodDemand; estimated: string[] } {
  const measured = round3(BANDS.reduce((n, b) => n + detail.bands[b], 0));
  if (detail.quarters === 0 || measured <= 0) {
    const hours = (part.to - part.from) / 3_600_000;
    const kw = round3(hours > 0 ? totalKwh / hours : 0);
    return {
      bands: split(totalKwh, quartersByBand(schedule, part.from, part.to, offset)),
      demand: { max: { kw, at: null, local: null }, punta: { kw, at: null, local: null } },
      estimated: ["bands", "demand"],
    };
  }
  const bands = Math.abs(totalKwh - measured) <= 0.001
    ? detail.bands
    : split(totalKwh, detail.bands);
  const estimated = detail.quarters < detail.expected - TOLERATED_GAP ? ["bands"] : [];
  return { bands, demand: detail.demand, estimated };
}
