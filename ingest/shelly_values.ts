/**
 * The measurement values a meter's state gives (pure): the Shelly fields mapped to the
 * portal's measurement keys, energy counters in kWh, totals derived. This runs for every
 * message, so the mapping uses tables built once rather than keys built per call.
 */
import type { MeasurementKey } from "../core/devices.ts";
import { type ComponentType, slotOf } from "./shelly_fields.ts";
import type { ComponentState, MeterState } from "./shelly_state.ts";

/** Measurement values of one reading. */
export type Values = Partial<Record<MeasurementKey, number>>;

const PHASES = ["a", "b", "c"] as const;

/** Pairs of a field's slot in a component state and the measurement key it gives. */
type FieldMap = readonly (readonly [number, MeasurementKey])[];

/** A {@link FieldMap} of a component type from field names. */
const fieldMap = (type: ComponentType, pairs: readonly (readonly [string, MeasurementKey])[]) =>
  pairs.map(([field, key]) => [slotOf(type, field), key] as const);

const EM_MAP: FieldMap = fieldMap("em", [
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
]);

/** EMData counters (Wh) → kWh keys. */
const EMDATA_MAP: FieldMap = fieldMap("emdata", [
  ...PHASES.flatMap((p) =>
    [
      [`${p}_total_act_energy`, `phase_${p}_energy_kwh`],
      [`${p}_total_act_ret_energy`, `phase_${p}_returned_kwh`],
    ] as const
  ),
  ["total_act", "total_energy_kwh"],
  ["total_act_ret", "total_returned_kwh"],
]);

/** EM1 of phase index i → keys. */
const EM1_MAPS: FieldMap[] = PHASES.map((p) =>
  fieldMap("em1", [
    ["act_power", `phase_${p}_power`],
    ["aprt_power", `phase_${p}_apparent_power`],
    ["current", `phase_${p}_current`],
    ["voltage", `phase_${p}_voltage`],
    ["pf", `phase_${p}_pf`],
  ])
);

const EM1DATA_MAPS: FieldMap[] = PHASES.map((p) =>
  fieldMap("em1data", [
    ["total_act_energy", `phase_${p}_energy_kwh`],
    ["total_act_ret_energy", `phase_${p}_returned_kwh`],
  ])
);

const EM_ACTIVE = slotOf("em", "total_act_power");
const EM_APPARENT = slotOf("em", "total_aprt_power");
const EM1_ACTIVE = slotOf("em1", "act_power");
const EM1_APPARENT = slotOf("em1", "aprt_power");
const EM1_CURRENT = slotOf("em1", "current");
const EM1DATA_ENERGY = slotOf("em1data", "total_act_energy");
const EM1DATA_RETURNED = slotOf("em1data", "total_act_ret_energy");

/** Wh to kWh, kept to the mWh so that 2589773.39 Wh is 2589.77339 kWh, not ...3900000003. */
function kwh(wh: number): number {
  return Math.round(wh * 1000) / 1e6;
}

/** total_pf is not sent by the meter: it is total active over total apparent power. */
function totalPf(active: number, apparent: number): number | undefined {
  // NaN (unknown) fails the comparison as `apparent`, and gives NaN as `active`.
  if (active !== active || !(apparent > 0)) return undefined;
  const pf = active / apparent;
  return Math.round((pf > 1 ? 1 : pf < -1 ? -1 : pf) * 1000) / 1000;
}

/** Copies mapped fields; returns how many. */
function copy(s: ComponentState, map: FieldMap, out: Values, energy: boolean): number {
  let n = 0;
  for (let i = 0; i < map.length; i++) {
    const v = s[map[i][0]];
    if (v === v) {
      out[map[i][1]] = energy ? kwh(v) : v;
      n++;
    }
  }
  return n;
}

/** The sum of one slot over the three phases, or NaN when any is unknown. */
function sum3(state: MeterState, first: number, slot: number): number {
  let total = 0;
  for (let i = first; i < first + 3; i++) {
    const s = state[i];
    if (s === undefined) return NaN;
    total += s[slot];
  }
  return total;
}

function put(out: Values, key: MeasurementKey, value: number | undefined): number {
  // undefined and NaN (unknown) are left out.
  if (value === undefined || value !== value) return 0;
  out[key] = value;
  return 1;
}

/** Copies the fields of the three monophase components from `first` on (phases a..c). */
function copyPhases(
  state: MeterState,
  first: number,
  maps: readonly FieldMap[],
  out: Values,
  energy: boolean,
): number {
  let copied = 0;
  for (let i = 0; i < 3; i++) {
    const s = state[first + i];
    if (s) copied += copy(s, maps[i], out, energy);
  }
  return copied;
}

/** Where the monophase components start in a {@link MeterState}. */
const EM1_FIRST = 2;
const EM1DATA_FIRST = 5;

/**
 * Monophase profile: `em1:0..2` are phases a..c; totals are their sums, given only when
 * the three phases all know the field (a sum of some phases would pass for a total).
 */
function em1Values(state: MeterState, out: Values): number {
  const copied = copyPhases(state, EM1_FIRST, EM1_MAPS, out, false);
  const active = sum3(state, EM1_FIRST, EM1_ACTIVE);
  const apparent = sum3(state, EM1_FIRST, EM1_APPARENT);
  return copied +
    put(out, "total_power", active) +
    put(out, "total_apparent_power", apparent) +
    put(out, "total_current", sum3(state, EM1_FIRST, EM1_CURRENT)) +
    put(out, "total_pf", totalPf(active, apparent));
}

/** Monophase profile: `em1data:0..2` are phases a..c; totals as for `em1`. */
function em1DataValues(state: MeterState, out: Values): number {
  const copied = copyPhases(state, EM1DATA_FIRST, EM1DATA_MAPS, out, true);
  const energy = sum3(state, EM1DATA_FIRST, EM1DATA_ENERGY);
  const returned = sum3(state, EM1DATA_FIRST, EM1DATA_RETURNED);
  return copied +
    put(out, "total_energy_kwh", kwh(energy)) +
    put(out, "total_returned_kwh", kwh(returned));
}

/** Whether a component state knows every field. */
function known(s: ComponentState): boolean {
  for (let i = 0; i < s.length; i++) if (s[i] !== s[i]) return false;
  return true;
}

const [EA, EB, EC] = PHASES.map((p) =>
  [`${p}_act_power`, `${p}_aprt_power`, `${p}_current`, `${p}_voltage`, `${p}_pf`].map((f) =>
    slotOf("em", f)
  )
);
const [EM_CURRENT, DA, DB, DC] = [
  slotOf("em", "total_current"),
  ...PHASES.map((p) =>
    [`${p}_total_act_energy`, `${p}_total_act_ret_energy`].map((f) => slotOf("emdata", f))
  ),
];
const [D_TOTAL, D_RETURNED] = [slotOf("emdata", "total_act"), slotOf("emdata", "total_act_ret")];

/** Values of a complete em state (and emdata state), as {@link copy} would give them. */
function emValues(s: ComponentState, pf: number, d: ComponentState | undefined): Values {
  const out: Values = {
    phase_a_power: s[EA[0]],
    phase_a_apparent_power: s[EA[1]],
    phase_a_current: s[EA[2]],
    phase_a_voltage: s[EA[3]],
    phase_a_pf: s[EA[4]],
    phase_b_power: s[EB[0]],
    phase_b_apparent_power: s[EB[1]],
    phase_b_current: s[EB[2]],
    phase_b_voltage: s[EB[3]],
    phase_b_pf: s[EB[4]],
    phase_c_power: s[EC[0]],
    phase_c_apparent_power: s[EC[1]],
    phase_c_current: s[EC[2]],
    phase_c_voltage: s[EC[3]],
    phase_c_pf: s[EC[4]],
    total_power: s[EM_ACTIVE],
    total_apparent_power: s[EM_APPARENT],
    total_current: s[EM_CURRENT],
    total_pf: pf,
  };
  if (d) {
    out.phase_a_energy_kwh = kwh(d[DA[0]]);
    out.phase_a_returned_kwh = kwh(d[DA[1]]);
    out.phase_b_energy_kwh = kwh(d[DB[0]]);
    out.phase_b_returned_kwh = kwh(d[DB[1]]);
    out.phase_c_energy_kwh = kwh(d[DC[0]]);
    out.phase_c_returned_kwh = kwh(d[DC[1]]);
    out.total_energy_kwh = kwh(d[D_TOTAL]);
    out.total_returned_kwh = kwh(d[D_RETURNED]);
  }
  return out;
}

/** Values of a complete emdata state alone. */
function emdataValues(d: ComponentState): Values {
  return {
    phase_a_energy_kwh: kwh(d[DA[0]]),
    phase_a_returned_kwh: kwh(d[DA[1]]),
    phase_b_energy_kwh: kwh(d[DB[0]]),
    phase_b_returned_kwh: kwh(d[DB[1]]),
    phase_c_energy_kwh: kwh(d[DC[0]]),
    phase_c_returned_kwh: kwh(d[DC[1]]),
    total_energy_kwh: kwh(d[D_TOTAL]),
    total_returned_kwh: kwh(d[D_RETURNED]),
  };
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
  const em = touched & TOUCHED.em ? state[0] : undefined;
  const emdata = touched & TOUCHED.emdata ? state[1] : undefined;
  // The usual reading (the triphase profile, every field known) in one object of one shape,
  // the keys in the order the general way below gives them.
  const pf = em ? totalPf(em[EM_ACTIVE], em[EM_APPARENT]) : undefined;
  if (
    (touched & (TOUCHED.em1 | TOUCHED.em1data)) === 0 && (em === undefined || known(em)) &&
    (pf !== undefined || em === undefined) && (emdata === undefined || known(emdata)) &&
    (em !== undefined || emdata !== undefined)
  ) {
    return em === undefined ? emdataValues(emdata!) : emValues(em, pf!, emdata);
  }
  const out: Values = {};
  let n = 0;
  if (em) {
    n += copy(em, EM_MAP, out, false);
    n += put(out, "total_pf", pf);
  }
  if (emdata) n += copy(emdata, EMDATA_MAP, out, true);
  if (touched & TOUCHED.em1) n += em1Values(state, out);
  if (touched & TOUCHED.em1data) n += em1DataValues(state, out);
  return n > 0 ? out : null;
}
