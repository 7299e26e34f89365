/**
 * The rules of the station form's SSR and unit editor, the same in the browser and on the
 * server (which answers the no-JavaScript form): SSR ids `ssr_N` on the next GPIO pin, up to
 * {@link MAX_SSRS} SSRs and GPIO{@link MAX_GPIO_PIN}; an SSR in use by a unit cannot be
 * removed; units (`unit_N`) need an SSR.
 */
import { MAX_GPIO_PIN, MAX_SSRS } from "./devices.ts";

/** An SSR row. */
export interface EditorSsr {
  id: string;
  name: string;
  type: "normal" | "emergency";
  gpio_pin: number;
}

/** A unit row. */
export interface EditorUnit {
  id: string;
  name: string;
  ssr_id: string;
}

/** Why an edit was refused. */
export type EditRefusal = "maxSsrs" | "maxGpio" | "ssrInUse" | "noSsrs";

/** The outcome of an edit: the new rows, or why it was refused. */
type EditResult<T> = { ok: true; rows: T[] } | { ok: false; reason: EditRefusal };

/** The highest `N` among ids `prefix_N` (0 when none). */
function highestSuffix(ids: string[], prefix: string): number {
  let n = 0;
  for (const id of ids) {
    const m = new RegExp(`^${prefix}_(\\d+)$`).exec(id);
    if (m) n = Math.max(n, Number(m[1]));
  }
  return n;
}

/** The GPIO pin the next SSR gets: one past the highest in use, from 0. */
export function nextGpioPin(ssrs: EditorSsr[]): number {
  return ssrs.length === 0 ? 0 : Math.max(...ssrs.map((s) => s.gpio_pin)) + 1;
}

/**
 * Adds an SSR (`ssr_N`, normal, next GPIO pin) named by `name(n)`; refused at
 * {@link MAX_SSRS} SSRs and past GPIO{@link MAX_GPIO_PIN}.
 */
export function addSsr(ssrs: EditorSsr[], name: (n: number) => string): EditResult<EditorSsr> {
  if (ssrs.length >= MAX_SSRS) return { ok: false, reason: "maxSsrs" };
  const pin = nextGpioPin(ssrs);
  if (pin > MAX_GPIO_PIN) return { ok: false, reason: "maxGpio" };
  const n = highestSuffix(ssrs.map((s) => s.id), "ssr") + 1;
  return {
    ok: true,
    rows: [...ssrs, { id: `ssr_${n}`, name: name(n), type: "normal", gpio_pin: pin }],
  };
}

/** Removes an SSR; refused while a unit is assigned to it. */
export function removeSsr(
  ssrs: EditorSsr[],
  units: EditorUnit[],
  id: string,
): EditResult<EditorSsr> {
  if (units.some((u) => u.ssr_id === id)) return { ok: false, reason: "ssrInUse" };
  return { ok: true, rows: ssrs.filter((s) => s.id !== id) };
}

/** Adds a unit (`unit_N`) on the first SSR; refused when there are no SSRs. */
export function addUnit(
  ssrs: EditorSsr[],
  units: EditorUnit[],
  name: (n: number) => string,
): EditResult<EditorUnit> {
  if (ssrs.length === 0) return { ok: false, reason: "noSsrs" };
  const n = highestSuffix(units.map((u) => u.id), "unit") + 1;
  return { ok: true, rows: [...units, { id: `unit_${n}`, name: name(n), ssr_id: ssrs[0].id }] };
}

/** Removes a unit. */
export function removeUnit(units: EditorUnit[], id: string): EditorUnit[] {
  return units.filter((u) => u.id !== id);
}
