/**
 * The numeric fields of the Shelly metering components that ingest keeps (pure), with
 * the range a reading must fall in to be believed. `em` and `emdata` are the Pro 3EM's
 * triphase profile; `em1` and `em1data` its monophase profile (one per phase).
 */

/** The metering component types ingest understands. */
export type ComponentType = "em" | "emdata" | "em1" | "em1data";

/** A metering component named by a status key such as `em:0` or `em1data:2`. */
export interface ComponentRef {
  type: ComponentType;
  id: number;
  /** Its place in a meter's state (`shelly_state.ts`): em:0, emdata:0, em1:0..2, em1data:0..2. */
  index: number;
}

/** The physical quantity of a field, which decides its valid range. */
type Quantity = "current" | "voltage" | "power" | "apparent" | "pf" | "energy";

/** [min, max] of each quantity; pf up to ±1.05 is accepted and clamped to ±1. */
const RANGES: Record<Quantity, readonly [number, number]> = {
  current: [0, 100_000],
  voltage: [0, 1_000],
  power: [-10_000_000, 10_000_000],
  apparent: [0, 10_000_000],
  pf: [-1.05, 1.05],
  energy: [0, 1e13],
};

const PHASES = ["a", "b", "c"] as const;

const EM_FIELDS: Record<string, Quantity> = {
  total_current: "current",
  total_act_power: "power",
  total_aprt_power: "apparent",
};
for (const p of PHASES) {
  EM_FIELDS[`${p}_current`] = "current";
  EM_FIELDS[`${p}_voltage`] = "voltage";
  EM_FIELDS[`${p}_act_power`] = "power";
  EM_FIELDS[`${p}_aprt_power`] = "apparent";
  EM_FIELDS[`${p}_pf`] = "pf";
}

const EMDATA_FIELDS: Record<string, Quantity> = { total_act: "energy", total_act_ret: "energy" };
for (const p of PHASES) {
  EMDATA_FIELDS[`${p}_total_act_energy`] = "energy";
  EMDATA_FIELDS[`${p}_total_act_ret_energy`] = "energy";
}

const EM1_FIELDS: Record<string, Quantity> = {
  current: "current",
  voltage: "voltage",
  act_power: "power",
  aprt_power: "apparent",
  pf: "pf",
};

const EM1DATA_FIELDS: Record<string, Quantity> = {
  total_act_energy: "energy",
  total_act_ret_energy: "energy",
};

const FIELDS: Record<ComponentType, Record<string, Quantity>> = {
  em: EM_FIELDS,
  emdata: EMDATA_FIELDS,
  em1: EM1_FIELDS,
  em1data: EM1DATA_FIELDS,
};

const COMPONENT_KEYS: Record<string, ComponentRef> = {
  "em:0": { type: "em", id: 0, index: 0 },
  "emdata:0": { type: "emdata", id: 0, index: 1 },
};
for (const id of [0, 1, 2]) {
  COMPONENT_KEYS[`em1:${id}`] = { type: "em1", id, index: 2 + id };
  COMPONENT_KEYS[`em1data:${id}`] = { type: "em1data", id, index: 5 + id };
}

/** How many metering components a meter's state holds (the `index` values above). */
export const COMPONENT_COUNT = 8;

/** The metering components by `index`. */
export const COMPONENT_REFS: readonly ComponentRef[] = Object.values(COMPONENT_KEYS).sort((x, y) =>
  x.index - y.index
);

/** The status key of a metering component (`em:0`, ...). */
export function componentKey(ref: ComponentRef): string {
  return `${ref.type}:${ref.id}`;
}

/**
 * The metering component a status key names (`em:0`, `emdata:0`, `em1:0`..`em1:2`,
 * `em1data:0`..`em1data:2`), or null for anything else (`sys`, `wifi`, `em:1`, ...).
 */
export function componentRef(key: string): ComponentRef | null {
  return Object.hasOwn(COMPONENT_KEYS, key) ? COMPONENT_KEYS[key] : null;
}

/**
 * The valid range of one field (pf fields are clamped to ±1 after the check) and its place
 * (`slot`) in the component's state.
 */
export interface FieldSpec {
  min: number;
  max: number;
  pf: boolean;
  slot: number;
}

const SPECS = Object.fromEntries(
  (Object.keys(FIELDS) as ComponentType[]).map((type) => [
    type,
    new Map(
      Object.entries(FIELDS[type]).map(([field, quantity], slot) => {
        const [min, max] = RANGES[quantity];
        return [field, { min, max, pf: quantity === "pf", slot }];
      }),
    ),
  ]),
) as unknown as Record<ComponentType, ReadonlyMap<string, FieldSpec>>;

/** The fields ingest keeps of a component type, with their ranges and slots. */
export function fieldSpecs(type: ComponentType): ReadonlyMap<string, FieldSpec> {
  return SPECS[type];
}

/** The slot of a field of a component type (see {@link FieldSpec}); throws for an unknown one. */
export function slotOf(type: ComponentType, field: string): number {
  const spec = SPECS[type].get(field);
  if (!spec) throw new Error(`no field ${field} in ${type}`);
  return spec.slot;
}

/**
 * Checks one field of a component against its spec: a finite number in range (pf clamped to
 * ±1), `null` (the meter does not know the value) or `"invalid"` (wrong type or out of range).
 */
export function checkValue(spec: FieldSpec, value: unknown): number | null | "invalid" {
  if (value === null) return null;
  // NaN fails both comparisons' negation below; ±Infinity fails the range.
  if (typeof value !== "number" || !(value >= spec.min && value <= spec.max)) return "invalid";
  return spec.pf ? (value > 1 ? 1 : value < -1 ? -1 : value) : value;
}
