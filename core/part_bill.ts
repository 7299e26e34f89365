/**
 * The bill of part of a period (issue 24): a tenancy's share of a unit's period when the unit
 * changed hands in it, or a vacant stretch. The part's own energy is priced with every amount
 * that belongs to the period as a whole prorated by the part's share of the period's time:
 *
 * - the block limits and the minimum consumption, to the Wh (core/tariff.ts, `PeriodShare`);
 * - the base tariff and the fixed charge, in cents, by cumulative rounding: a part
 *   `[a, b)` of a period `[p, q)` gets `round(W × (b − p) / (q − p)) − round(W × (a − p) /
 *   (q − p))` of an amount `W`, so the parts of a period always add up to the whole, each
 *   within a cent of its exact share.
 *
 * A part that spans a change of price version is cut again at the change (core/zone_versions.ts):
 * each piece gets the energy of its time share of the part and is priced as above with its
 * version. A part that is the whole period is `computeVersionedBill` itself, so a unit held by
 * one tenant all period bills exactly as before. Tax is computed on each piece's own amounts.
 */
import { computeUnitBill, type TierDetail } from "./tariff.ts";
import {
  computeVersionedBill,
  type VersionedBill,
  versionParts,
  type ZoneVersion,
} from "./zone_versions.ts";
import { dayStart } from "./local_time.ts";

const DAY = 86_400_000;

/** The period a part belongs to: its text and its instants `[from, to)`. */
export interface PartPeriod {
  text: string;
  from: number;
  to: number;
  /** The business time zone (minutes east of UTC), where versions change at midnight. */
  offsetMinutes: number;
}

/** A bill of part of a period, with the part it covers. */
interface PartBill extends VersionedBill {
  /** The part `[from, to)` and its length in days beside the period's. */
  share: { from: number; to: number; days: number; period_days: number } | null;
}

/** `W × num / den` rounded half up (BigInt: cents × milliseconds exceed 2^53). */
function roundShare(w: number, num: number, den: number): number {
  const n = BigInt(w) * BigInt(num) * 2n + BigInt(den);
  const d = BigInt(den) * 2n;
  const q = n / d;
  return Number(n % d < 0n ? q - 1n : q);
}

/** The cents of `w` that fall in `[a, b)` of the period, by cumulative rounding. */
function centsOfPart(w: number, part: { from: number; to: number }, p: PartPeriod) {
  const whole = p.to - p.from;
  return roundShare(w, part.to - p.from, whole) - roundShare(w, part.from - p.from, whole);
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Prices `energyKwh` measured in `part` of the period. The whole period: exactly
 * `computeVersionedBill`. Throws RangeError for a part outside the period or empty.
 */
export function computePartBill(
  versions: readonly ZoneVersion[],
  energyKwh: number,
  period: PartPeriod,
  part: { from: number; to: number },
): PartBill {
  if (part.from === period.from && part.to === period.to) {
    return { ...computeVersionedBill(versions, energyKwh, period.text), share: null };
  }
  if (!(part.from >= period.from && part.to <= period.to && part.to > part.from)) {
    throw new RangeError(
      `a part must lie in its period [${period.from}, ${period.to}), saw [${part.from}, ${part.to})`,
    );
  }
  // The part's pieces: its overlap with each version's run of days.
  const pieces = versionParts(versions, period.text).flatMap((run) => {
    const from = Math.max(dayStart(run.from, period.offsetMinutes), part.from);
    const to = Math.min(dayStart(run.to, period.offsetMinutes) + DAY, part.to);
    return to > from ? [{ version: run.version, from, to }] : [];
  });
  const length = part.to - part.from;
  let left = energyKwh;
  const bills = pieces.map((piece, i) => {
    const energy = i === pieces.length - 1
      ? round3(left)
      : round3(energyKwh * (piece.to - piece.from) / length);
    left -= energy;
    const zone = piece.version.zone;
    const whole = computeUnitBill(zone, 0, { period: period.text });
    const fixed = whole.fixed_charge ?? 0;
    return computeUnitBill(zone, energy, {
      period: period.text,
      share: { part: piece.to - piece.from, whole: period.to - period.from },
      fixedAmounts: {
        base_tariff: centsOfPart(whole.base_tariff - fixed, piece, period),
        fixed_charge: centsOfPart(fixed, piece, period),
      },
    });
  });
  const days = (piece: { from: number; to: number }) => round2((piece.to - piece.from) / DAY);
  const periodDays = days(period);
  const sum = (f: (b: (typeof bills)[number]) => number) => bills.reduce((n, b) => n + f(b), 0);
  const details: TierDetail[] = bills.flatMap((b, i) =>
    b.calculation_details.map((t) =>
      bills.length === 1 ? t : { ...t, description: `${t.description} (${days(pieces[i])} d)` }
    )
  );
  const last = bills[bills.length - 1];
  return {
    ...last,
    energy_consumption: energyKwh,
    energy_cost: sum((b) => b.energy_cost),
    base_tariff: sum((b) => b.base_tariff),
    compensation_cost: sum((b) => b.compensation_cost),
    tax_cost: sum((b) => b.tax_cost),
    total_cost: sum((b) => b.total_cost),
    fixed_charge: sum((b) => b.fixed_charge ?? 0),
    minimum_kwh: round3(sum((b) => b.minimum_kwh ?? 0)),
    billed_kwh: round3(sum((b) => b.billed_kwh ?? 0)),
    calculation_details: details,
    parts: pieces.map((p) => ({
      applies_from: p.version.applies_from,
      from: new Date(p.from).toISOString(),
      to: new Date(p.to).toISOString(),
      days: days(p),
    })),
    share: { from: part.from, to: part.to, days: days(part), period_days: periodDays },
  };
}
