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
/** The keys judged, in {@link Reading}'s order. */
const VOLTAGES: readonly MeasurementKey[] = PHASES.map((ph) => `phase_${ph}_voltage` as const);
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

/**
 * The measurements the reading rules judge, read once from a reading's values into one object
 * of a fixed shape ({@link readInto}; a sample's values are an open record): phase voltages
 * a, b, c; total and phase powers; the power factor.
 */
export interface Reading {
  volts: (number | undefined)[];
  powers: (number | undefined)[];
  pf: number | undefined;
}

/** An empty reading, to be filled by {@link readInto} again and again. */
export const newReading = (): Reading => ({
  volts: [undefined, undefined, undefined],
  powers: [undefined, undefined, undefined, undefined],
  pf: undefined,
});

/** Fills `r` with what `v` holds of the judged measurements; answers `r`. */
export function readInto(v: ReadingValues, r: Reading): Reading {
  r.volts[0] = v.phase_a_voltage;
  r.volts[1] = v.phase_b_voltage;
  r.volts[2] = v.phase_c_voltage;
  r.powers[0] = v.total_power;
  r.powers[1] = v.phase_a_power;
  r.powers[2] = v.phase_b_power;
  r.powers[3] = v.phase_c_power;
  r.pf = v.total_pf;
  return r;
}

/**
 * A rule's judge, made once per rule: what a reading says about it, written into `out` (no
 * allocation: this runs for every reading and rule in ingest's path), or null when it says
 * nothing (values missing). A verdict it answers is `out`, valid until the next call.
 */
export type Judge = (r: Reading, out: Verdict) => Verdict | null;

/** Sets `out` to a verdict and answers it. */
function say(out: Verdict, state: Verdict["state"], value?: number, key?: MeasurementKey) {
  out.state = state;
  out.value = value;
  out.key = key;
  return out;
}

/** The judge of `rule` (its limits worked out once); see {@link Judge}. */
export function judgeOf(rule: AlertRule): Judge {
  const p = rule.params;
  switch (rule.template) {
    case "voltage_band": {
      const lo = p.nominal_v * (1 - p.tolerance_pct / 100);
      const hi = p.nominal_v * (1 + p.tolerance_pct / 100);
      // Back within the band only 2 % of nominal inside its edges: hysteresis.
      const m = p.nominal_v * 0.02;
      return (r, out) => {
        let worst = -1;
        let worstOff = 0;
        let allInside = true;
        let seen = false;
        for (let i = 0; i < 3; i++) {
          const x = r.volts[i];
          if (x === undefined || x < NO_VOLTAGE) continue;
          seen = true;
          const off = Math.max(lo - x, x - hi);
          if (off > 0 && (worst < 0 || off > worstOff)) {
            worst = i;
            worstOff = off;
          }
          if (x < lo + m || x > hi - m) allInside = false;
        }
        if (worst >= 0) return say(out, "bad", r.volts[worst], VOLTAGES[worst]);
        if (!seen) return null;
        return say(out, allInside ? "good" : "hold");
      };
    }
    case "phase_lost":
      return (r, out) => {
        let known = 0;
        let carrying = 0;
        let lost = -1;
        for (let i = 0; i < 3; i++) {
          const x = r.volts[i];
          if (x === undefined) continue;
          known++;
          if (x >= CARRIES_VOLTAGE) carrying++;
          else if (x < NO_VOLTAGE && lost < 0) lost = i;
        }
        if (known < 2 || carrying === 0) return null; // the whole supply is off: no phase loss
        if (lost >= 0) return say(out, "bad", r.volts[lost], VOLTAGES[lost]);
        return say(out, carrying === known ? "good" : "hold");
      };
    case "reverse_power": {
      const limit = -p.tolerance_w;
      return (r, out) => {
        let min = -1;
        let minX = 0;
        for (let i = 0; i < 4; i++) {
          const x = r.powers[i];
          if (x !== undefined && (min < 0 || x < minX)) {
            min = i;
            minX = x;
          }
        }
        if (min < 0) return null;
        const state = minX < limit ? "bad" : minX > limit / 2 ? "good" : "hold";
        return say(out, state, minX, POWERS[min]);
      };
    }
    case "low_pf": {
      const limit = p.pf;
      return (r, out) => {
        const pf = r.pf;
        const w = r.powers[0];
        if (pf === undefined || w === undefined || Math.abs(w) < PF_MIN_LOAD_W) return null;
        const x = Math.abs(pf);
        return say(out, x < limit ? "bad" : x >= limit + 0.02 ? "good" : "hold", x, "total_pf");
      };
    }
    case "high_power": {
      const limit = p.kw;
      return (r, out) => {
        const w = r.powers[0];
        if (w === undefined) return null;
        const kw = w / 1000;
        return say(out, kw > limit ? "bad" : kw < limit * 0.95 ? "good" : "hold", w, "total_power");
      };
    }
    default:
      return () => null;
  }
}

/** The parameters a template's judge reads (`minutes` is the watch's, not the judge's). */
const JUDGED: Partial<Record<AlertRule["template"], readonly (keyof AlertRule["params"])[]>> = {
  voltage_band: ["nominal_v", "tolerance_pct"],
  reverse_power: ["tolerance_w"],
  low_pf: ["pf"],
  high_power: ["kw"],
};

/**
 * What a rule's judge depends on: rules with the same one say the same of every reading (they
 * differ in minutes, scope or reminders), so a reading is judged once for all of them.
 */
export function judgeKey(rule: AlertRule): string {
  return [rule.template, ...(JUDGED[rule.template] ?? []).map((k) => rule.params[k])].join("|");
}

/** What a reading says about `rule`, or null when it says nothing (values missing). */
export function judge(rule: AlertRule, v: ReadingValues): Verdict | null {
  return judgeOf(rule)(readInto(v, newReading()), { state: "hold" });
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
 * The watches of one meter packed in one array (ingest's path: a reading touches one block of
 * memory, not an object per rule): per watch, open (1) or not (0), the start of its run and the
 * time of its last reading (NaN: none).
 */
export type Watches = Float64Array;
const SLOTS = 3;

/** `n` packed watches, closed. */
export function newWatches(n: number): Watches {
  const ws = new Float64Array(n * SLOTS).fill(NaN);
  for (let i = 0; i < n; i++) ws[i * SLOTS] = 0;
  return ws;
}

/** Watch `i` of `ws` as an object. */
export function watchAt(ws: Watches, i: number): Watch {
  const o = i * SLOTS;
  const none = (x: number) => Number.isNaN(x) ? null : x;
  return { open: ws[o] === 1, since: none(ws[o + 1]), last: none(ws[o + 2]) };
}

/** Sets watch `i` of `ws` to `w`. */
export function setWatchAt(ws: Watches, i: number, w: Watch): void {
  const o = i * SLOTS;
  ws[o] = w.open ? 1 : 0;
  ws[o + 1] = w.since ?? NaN;
  ws[o + 2] = w.last ?? NaN;
}

/**
 * Moves watch `i` of `ws` by a reading judged `verdict` at `ts` (in place); answers the
 * transition, if any. A run of the opposite condition must last `minutesMs` (readings at most
 * {@link MAX_GAP_MS} apart) before the watch turns; a reading in the hysteresis band neither
 * starts nor breaks a run (a reading that says nothing of the rule neither: the meter still
 * speaks). Readings older than the last one are ignored.
 */
export function stepAt(
  ws: Watches,
  i: number,
  verdict: Verdict | null,
  ts: number,
  minutesMs: number,
): Transition | null {
  const o = i * SLOTS;
  const last = ws[o + 2];
  if (ts < last) return null; // (false when there was none: NaN)
  if (ts - last > MAX_GAP_MS) ws[o + 1] = NaN;
  ws[o + 2] = ts;
  if (verdict === null || verdict.state === "hold") return null;
  const open = ws[o] === 1;
  if (verdict.state !== (open ? "good" : "bad")) {
    ws[o + 1] = NaN;
    return null;
  }
  let since = ws[o + 1];
  if (Number.isNaN(since)) ws[o + 1] = since = ts;
  if (ts - since < minutesMs) return null;
  ws[o] = open ? 0 : 1;
  ws[o + 1] = NaN;
  return { kind: open ? "clear" : "open", at: ts, value: verdict.value, key: verdict.key };
}

/** {@link stepAt} on one watch object (`minutes`, not ms). */
export function step(
  w: Watch,
  verdict: Verdict | null,
  ts: number,
  minutes: number,
): Transition | null {
  const ws = newWatches(1);
  setWatchAt(ws, 0, w);
  const t = stepAt(ws, 0, verdict, ts, minutes * 60_000);
  Object.assign(w, watchAt(ws, 0));
  return t;
}
