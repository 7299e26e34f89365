/**
 * The last known metering state of one meter and its mapping to the portal's measurement
 * keys (pure). Full status objects replace a component's state; NotifyStatus frames are
 * partial and are overlaid on it, as the Shelly docs intend ("overlay the changes from
 * NotifyStatus over a known status"). This runs for every message, so the mapping uses
 * tables built once rather than keys built per call.
 */
import type { MeasurementKey } from "../core/devices.ts";
import { checkValue, type ComponentRef, type ComponentType, fieldSpecs } from "./shelly_fields.ts";

/** Measurement values of one reading. */
export type Values = Partial<Record<MeasurementKey, number>>;

/** The believed numeric fields of one component; undefined is unknown. */
type ComponentState = Record<string, number | undefined>;

/** The last known state of a meter's metering components, by status key (`em:0`, ...). */
export type MeterState = Map<string, ComponentState>;

/** How a component object is applied: a full status replaces, a partial frame overlays. */
export type ApplyMode = "replace" | "overlay";

/** What applying one component object gave. */
interface ApplyResult {
  /** Fields kept (numbers) or cleared (null). */
  accepted: number;
  /** Fields of a known name with a wrong type or out of range (dropped). */
  invalid: number;
}

/** A new, empty meter state. */
export function newMeterState(): MeterState {
  return new Map();
}

/**
 * Applies one component object to the state. Returns null when the input is not a plain
 * object (nothing changes). Invalid fields are dropped and keep their previous value in
 * overlay mode; `null` clears a field (the meter does not know it). When no field was
 * accepted the state stays as it was, even in replace mode.
 */
export function applyComponent(
  state: MeterState,
  key: string,
  ref: ComponentRef,
  input: unknown,
  mode: ApplyMode,
): ApplyResult | null {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return null;
  const specs = fieldSpecs(ref.type);
  const previous = state.get(key);
  // Overlaying writes into the known state in place: only accepted fields are written,
  // so a frame whose every field is wrong changes nothing.
  const target: ComponentState = mode === "overlay" && previous ? previous : {};
  let accepted = 0;
  let invalid = 0;
  const fields = input as Record<string, unknown>;
  for (const field in fields) {
    const spec = specs.get(field);
    if (spec === undefined) continue;
    const checked = checkValue(spec, fields[field]);
    if (checked === "invalid") {
      invalid++;
    } else {
      target[field] = checked === null ? undefined : checked;
      accepted++;
    }
  }
  if (accepted > 0 && target !== previous) state.set(key, target);
  return { accepted, invalid };
}

const PHASES = ["a", "b", "c"] as const;

type FieldMap = readonly (readonly [string, MeasurementKey])[];

const EM_MAP: FieldMap = [
  ...PHASES.flatMap((p) =>
    [
      [`${p}_act_power`, `phase_${p}_power`],
      [`${p}_aprt_power`, `phase_${p}_apparent_power`],
      [`${p}_current`, `phase_${p}_current`],
      [`${p}_voltage`, `phase_${p}_voltage`],
      [`${p}_pf`, `phase_${p}_pf`],
    ] as const
  ),
  ["total_act_power", "total_power"],
  ["total_aprt_power", "total_apparent_power"],
  ["total_current", "total_current"],
];

/** EMData counters (Wh) → kWh keys. */
const EMDATA_MAP: FieldMap = [
  ...PHASES.flatMap((p) =>
    [
      [`${p}_total_act_energy`, `phase_${p}_energy_kwh`],
      [`${p}_total_act_ret_energy`, `phase_${p}_returned_kwh`],
    ] as const
  ),
  ["total_act", "total_energy_kwh"],
  ["total_act_ret", "total_returned_kwh"],
];

/** EM1 of phase index i → keys. */
const EM1_MAPS: FieldMap[] = PHASES.map((p) => [
  ["act_power", `phase_${p}_power`],
  ["aprt_power", `phase_${p}_apparent_power`],
  ["current", `phase_${p}_current`],
  ["voltage", `phase_${p}_voltage`],
  ["pf", `phase_${p}_pf`],
]);

const EM1DATA_MAPS: FieldMap[] = PHASES.map((p) => [
  ["total_act_energy", `phase_${p}_energy_kwh`],
  ["total_act_ret_energy", `phase_${p}_returned_kwh`],
]);

const EM1_KEYS = ["em1:0", "em1:1", "em1:2"];
const EM1DATA_KEYS = ["em1data:0", "em1data:1", "em1data:2"];

/** Wh to kWh, kept to the mWh so that 2589773.39 Wh is 2589.77339 kWh, not ...3900000003. */
function kwh(wh: number): number {
  return Math.round(wh * 1000) / 1e6;
}

/** total_pf is not sent by the meter: it is total active over total apparent power. */
function totalPf(active: number | undefined, apparent: number | undefined): number | undefined {
  if (active === undefined || apparent === undefined || !(apparent > 0)) return undefined;
  const pf = active / apparent;
  return Math.round((pf > 1 ? 1 : pf < -1 ? -1 : pf) * 1000) / 1000;
}

/** Copies mapped fields; returns how many. */
function copy(s: ComponentState, map: FieldMap, out: Values, energy: boolean): number {
  let n = 0;
  for (let i = 0; i < map.length; i++) {
    const v = s[map[i][0]];
    if (v !== undefined) {
      out[map[i][1]] = energy ? kwh(v) : v;
      n++;
    }
  }
  return n;
}

/** The sum of one field over the three phases, or undefined when any is unknown. */
function sum3(phases: (ComponentState | undefined)[], field: string): number | undefined {
  let total = 0;
  for (const s of phases) {
    const v = s?.[field];
    if (v === undefined) return undefined;
    total += v;
  }
  return total;
}

function put(out: Values, key: MeasurementKey, value: number | undefined): number {
  if (value === undefined) return 0;
  out[key] = value;
  return 1;
}

/**
 * Copies the fields of the three monophase components `keys` (phases a..c); answers their
 * states and how many values it copied.
 */
function copyPhases(
  state: MeterState,
  keys: readonly string[],
  maps: readonly FieldMap[],
  out: Values,
  energy: boolean,
): { phases: (ComponentState | undefined)[]; copied: number } {
  const phases = keys.map((k) => state.get(k));
  let copied = 0;
  phases.forEach((s, i) => {
    if (s) copied += copy(s, maps[i], out, energy);
  });
  return { phases, copied };
}

/**
 * Monophase profile: `em1:0..2` are phases a..c; totals are their sums, given only when
 * the three phases all know the field (a sum of some phases would pass for a total).
 */
function em1Values(state: MeterState, out: Values): number {
  const { phases, copied } = copyPhases(state, EM1_KEYS, EM1_MAPS, out, false);
  const active = sum3(phases, "act_power");
  const apparent = sum3(phases, "aprt_power");
  return copied +
    put(out, "total_power", active) +
    put(out, "total_apparent_power", apparent) +
    put(out, "total_current", sum3(phases, "current")) +
    put(out, "total_pf", totalPf(active, apparent));
}

/** Monophase profile: `em1data:0..2` are phases a..c; totals as for `em1`. */
function em1DataValues(state: MeterState, out: Values): number {
  const { phases, copied } = copyPhases(state, EM1DATA_KEYS, EM1DATA_MAPS, out, true);
  const energy = sum3(phases, "total_act_energy");
  const returned = sum3(phases, "total_act_ret_energy");
  return copied +
    put(out, "total_energy_kwh", energy === undefined ? undefined : kwh(energy)) +
    put(out, "total_returned_kwh", returned === undefined ? undefined : kwh(returned));
}

/** Bits of {@link valuesOf}'s `touched`, one per component type. */
export const TOUCHED: Record<ComponentType, number> = { em: 1, emdata: 2, em1: 4, em1data: 8 };

/**
 * The measurement values of the component types a message touched (a bit set of
 * {@link TOUCHED}), from the merged state: power, apparent power, current, voltage and pf
 * per phase and in total (total_pf derived), energy counters in kWh (the meter counts
 * Wh). Returns null when there is no value at all.
 */
export function valuesOf(state: MeterState, touched: number): Values | null {
  const out: Values = {};
  let n = 0;
  if (touched & TOUCHED.em) {
    const s = state.get("em:0");
    if (s) {
      n += copy(s, EM_MAP, out, false);
      n += put(out, "total_pf", totalPf(s.total_act_power, s.total_aprt_power));
    }
  }
  if (touched & TOUCHED.emdata) {
    const s = state.get("emdata:0");
    if (s) n += copy(s, EMDATA_MAP, out, true);
  }
  if (touched & TOUCHED.em1) n += em1Values(state, out);
  if (touched & TOUCHED.em1data) n += em1DataValues(state, out);
  return n > 0 ? out : null;
}
