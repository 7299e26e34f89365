/** Formatting of the owner pages: numbers with fixed decimals, local times, the never text. */
import type { Translate } from "../../services/platform/i18n.ts";
import { localDateTime } from "../devices/sensor/format.ts";

/** `n` with `digits` decimals and the unit: `(1.5, 2, "kW")` → `1.50 kW`. */
export function num(n: number, digits: number, unit?: string): string {
  const s = n.toFixed(digits);
  return unit ? `${s} ${unit}` : s;
}

/** `ms` as local `YYYY-MM-DD HH:MM`, or the never text. */
export function when(t: Translate, ms: number | null, offsetMinutes: number): string {
  return ms === null
    ? t("customer.dashboard.installations.never")
    : localDateTime(ms, offsetMinutes);
}

/** `ms` as the local date `YYYY-MM-DD`. */
export function day(ms: number, offsetMinutes: number): string {
  return localDateTime(ms, offsetMinutes).slice(0, 10);
}
