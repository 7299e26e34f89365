/**
 * The last known metering state of one meter and its mapping to the portal's measurement
 * keys (pure). Full status objects replace a component's state; NotifyStatus frames are
 * partial and are overlaid on it, as the Shelly docs intend ("overlay the changes from
 * NotifyStatus over a known status"). A component's state is kept by field slot; what a
 * reading carries is made of it in `shelly_values.ts`.
 */
import {
  checkValue,
  COMPONENT_COUNT,
  COMPONENT_REFS,
  componentKey,
  type ComponentRef,
  type ComponentType,
  type FieldSpec,
  fieldSpecs,
} from "./shelly_fields.ts";

/**
 * The believed numeric fields of one component, by the slot of each field
 * (`shelly_fields.ts`); NaN is unknown (a believed value is never NaN: it passed a range).
 */
export type ComponentState = Float64Array;

/**
 * The last known state of a meter's metering components, by the component's index
 * (`ComponentRef.index`: em:0, emdata:0, em1:0..2, em1data:0..2); undefined: never seen.
 */
export type MeterState = (ComponentState | undefined)[];

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
  return new Array<ComponentState | undefined>(COMPONENT_COUNT).fill(undefined);
}

/** A component state of each type where a replacing object is gathered before it is kept. */
const SCRATCH = Object.fromEntries(
  (["em", "emdata", "em1", "em1data"] as const).map((
    t,
  ) => [t, new Float64Array(fieldSpecs(t).size)]),
) as Record<ComponentType, Float64Array>;

/**
 * Applies one component object to the state. Returns null when the input is not a plain
 * object (nothing changes). Invalid fields are dropped and keep their previous value in
 * overlay mode; `null` clears a field (the meter does not know it). When no field was
 * accepted the state stays as it was, even in replace mode.
 */
export function applyComponent(
  state: MeterState,
  ref: ComponentRef,
  input: unknown,
  mode: ApplyMode,
): ApplyResult | null {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return null;
  const specs = fieldSpecs(ref.type);
  const previous = state[ref.index];
  // Overlaying writes into the known state in place: only accepted fields are written,
  // so a frame whose every field is wrong changes nothing. Replacing gathers the fields in a
  // scratch state, kept only when a field was accepted.
  const overlay = mode === "overlay" && previous !== undefined;
  const target = overlay ? previous : SCRATCH[ref.type].fill(NaN);
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
      target[spec.slot] = checked === null ? NaN : checked;
      accepted++;
    }
  }
  if (accepted > 0 && !overlay) {
    if (previous) previous.set(target);
    else state[ref.index] = target.slice();
  }
  return { accepted, invalid };
}

/** The field specs of each component type by slot. */
const SPEC_LIST = Object.fromEntries(
  (["em", "emdata", "em1", "em1data"] as const).map((t) => [t, [...fieldSpecs(t).values()]]),
) as Record<ComponentType, FieldSpec[]>;

/**
 * {@link applyComponent} for a component read by `shelly_scan.ts`: `values` and `marks` by
 * field slot (marks: 0 absent, 1 the number in `values`, 2 null).
 */
export function applyFields(
  state: MeterState,
  ref: ComponentRef,
  values: Float64Array,
  marks: Uint8Array,
  mode: ApplyMode,
): ApplyResult {
  const specs = SPEC_LIST[ref.type];
  const previous = state[ref.index];
  const overlay = mode === "overlay" && previous !== undefined;
  const target = overlay ? previous : SCRATCH[ref.type].fill(NaN);
  let accepted = 0;
  let invalid = 0;
  for (let slot = 0; slot < specs.length; slot++) {
    const mark = marks[slot];
    if (mark === 0) continue;
    accepted++;
    if (mark === 2) {
      target[slot] = NaN;
      continue;
    }
    // checkValue's test for a number, without its answer's union.
    const v = values[slot];
    const spec = specs[slot];
    if (!(v >= spec.min && v <= spec.max)) {
      accepted--;
      invalid++;
    } else target[slot] = spec.pf ? (v > 1 ? 1 : v < -1 ? -1 : v) : v;
  }
  if (accepted > 0 && !overlay) {
    if (previous) previous.set(target);
    else state[ref.index] = target.slice();
  }
  return { accepted, invalid };
}

/**
 * What a meter's state believes, by status key (`em:0`, ...) and field name, unknown fields
 * left out: a component is present once a message set any of its fields. For tests and
 * diagnostics, not the message path.
 */
export function believedFields(state: MeterState): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  state.forEach((s, index) => {
    if (!s) return;
    const ref = COMPONENT_REFS[index];
    const fields: Record<string, number> = {};
    for (const [field, spec] of fieldSpecs(ref.type)) {
      if (s[spec.slot] === s[spec.slot]) fields[field] = s[spec.slot];
    }
    out[componentKey(ref)] = fields;
  });
  return out;
}
