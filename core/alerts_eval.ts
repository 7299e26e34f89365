/**
 * Reading rules (issue 30) as pure functions: what one reading says about a rule (bad, good,
 * or in between: hysteresis), and a watch per rule and meter that opens an alert only after the
 * condition held `minutes` without a break, and clears it only after it was gone as long. A
 * signal flapping around its limit keeps one alert open rather than opening fifty.
 */
import type { AlertRule } from "./alert_rules.ts";
import type { MeasurementKey } from "./devices.ts";

/** Measurement values of one reading. */
export type ReadingValues = Partial<Record<MeasurementKey, number>>;

/** What a reading says about a rule: beyond its limit, back within the clear band, or between. */
export interface Verdict {
  state: "bad" | "good" | "hold";
  /** The value judged (the worst one when bad) and its measurement key. */
  value?: number;
  key?: MeasurementKey;
}

const PHASES = ["a", "b", "c"] as const;
/** The keys judged, spelled once (this runs for every reading and rule). */
const VOLTAGES = PHASES.map((ph) => `phase_${ph}_voltage` as const);
const POWERS: readonly MeasurementKey[] = [
  "total_power",
  ...PHASES.map((ph) => `phase_${ph}_power` as const),
];
/** Below this a phase's voltage is absent (a lost phase, not a low voltage). */
const NO_VOLTAGE = 5;
/** A phase above this carries voltage. */
const CARRIES_VOLTAGE = 50;
/** Power factor is not judged under this load (W): a light load's pf means nothing. */
const PF_MIN_LOAD_W = 100;
/** Readings further apart than this break a run (a gap is not "held all along"). */
export const MAX_GAP_MS = 5 * 60_000;

/** What a reading says about `rule`, or null when it says nothing (values missing). */
export function judge(rule: AlertRule, v: ReadingValues): Verdict | null {
  const p = rule.params;
  switch (rule.template) {
    case "voltage_band": {
      const lo = p.nominal_v * (1 - p.tolerance_pct / 100);
      const hi = p.nominal_v * (1 + p.tolerance_pct / 100);
      // Back within the band only 2 % of nominal inside its edges: hysteresis.
      const m = p.nominal_v * 0.02;
      let worst: Verdict | null = null;
      let allInside = true;
      let seen = false;
      for (const key of VOLTAGES) {
        const x = v[key];
        if (x === undefined || x < NO_VOLTAGE) continue;
        seen = true;
        const off = Math.max(lo - x, x - hi);
        if (off > 0 && (worst === null || off > Math.max(lo - worst.value!, worst.value! - hi))) {
          worst = { state: "bad", value: x, key };
        }
        if (x < lo + m || x > hi - m) allInside = false;
      }
      if (worst) return worst;
      if (!seen) return null;
      return { state: allInside ? "good" : "hold" };
    }
    case "phase_lost": {
      let known = 0;
      let carrying = 0;
      let lost: MeasurementKey | null = null;
      for (const key of VOLTAGES) {
        const x = v[key];
        if (x === undefined) continue;
        known++;
        if (x >= CARRIES_VOLTAGE) carrying++;
        else if (x < NO_VOLTAGE) lost ??= key;
      }
      if (known < 2 || carrying === 0) return null; // the whole supply is off: no phase loss
      if (lost) return { state: "bad", value: v[lost], key: lost };
      return { state: carrying === known ? "good" : "hold" };
    }
    case "reverse_power": {
      let min: { x: number; key: MeasurementKey } | null = null;
      for (const key of POWERS) {
        const x = v[key];
        if (x !== undefined && (min === null || x < min.x)) min = { x, key };
      }
      if (!min) return null;
      if (min.x < -p.tolerance_w) return { state: "bad", value: min.x, key: min.key };
      return { state: min.x > -p.tolerance_w / 2 ? "good" : "hold", value: min.x, key: min.key };
    }
    case "low_pf": {
      const pf = v.total_pf;
      const w = v.total_power;
      if (pf === undefined || w === undefined || Math.abs(w) < PF_MIN_LOAD_W) return null;
      const x = Math.abs(pf);
      if (x < p.pf) return { state: "bad", value: x, key: "total_pf" };
      return { state: x >= p.pf + 0.02 ? "good" : "hold", value: x, key: "total_pf" };
    }
    case "high_power": {
      const w = v.total_power;
      if (w === undefined) return null;
      const kw = w / 1000;
      if (kw > p.kw) return { state: "bad", value: w, key: "total_power" };
      return { state: kw < p.kw * 0.95 ? "good" : "hold", value: w, key: "total_power" };
    }
    default:
      return null;
  }
}

/** The state of one rule on one meter. */
export interface Watch {
  /** Whether the rule's alert is open (as this watch knows it). */
  open: boolean;
  /** Start of the current run of the opposite condition (bad while closed, good while open). */
  since: number | null;
  /** Time of the last reading judged. */
  last: number | null;
}

/** A new watch (closed, or open when the store holds an open alert). */
export const newWatch = (open = false): Watch => ({ open, since: null, last: null });

/** What a step changed: the alert opens or clears, with the reading that made it. */
export type Transition = { kind: "open" | "clear"; at: number; value?: number; key?: string };

/**
 * Moves `w` by a reading judged `verdict` at `ts` (in place); answers the transition, if any.
 * A run of the opposite condition must last `minutes` (readings at most {@link MAX_GAP_MS}
 * apart) before the watch turns; a reading in the hysteresis band neither starts nor breaks a
 * run (a reading that says nothing of the rule neither: the meter still speaks). Readings older
 * than the last one are ignored.
 */
export function step(
  w: Watch,
  verdict: Verdict | null,
  ts: number,
  minutes: number,
): Transition | null {
  if (w.last !== null && ts < w.last) return null;
  if (w.last !== null && ts - w.last > MAX_GAP_MS) w.since = null;
  w.last = ts;
  if (verdict === null || verdict.state === "hold") return null;
  const against = w.open ? "good" : "bad";
  if (verdict.state !== against) {
    w.since = null;
    return null;
  }
  w.since ??= ts;
  if (ts - w.since < minutes * 60_000) return null;
  w.open = !w.open;
  w.since = null;
  return { kind: w.open ? "open" : "clear", at: ts, value: verdict.value, key: verdict.key };
}
