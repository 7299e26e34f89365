/** Formatting of the tenant pages: money from cents, energy, power, local times, status badges. */
import type { Translate } from "../../services/platform/i18n.ts";
import { localDateTime } from "../../core/local_time.ts";

/** Cents with two decimals and the currency: `44834, "MXN"` → `448.34 MXN`. */
export function money(cents: number, currency: string): string {
  return `${(Math.round(cents) / 100).toFixed(2)} ${currency}`;
}

/** kWh with two decimals. */
export function kwh(value: number): string {
  return `${value.toFixed(2)} kWh`;
}

/** kW with two decimals. */
export function kw(value: number): string {
  return `${value.toFixed(2)} kW`;
}

/** `ms` as local `YYYY-MM-DD HH:MM`, or the never text. */
export function localTime(t: Translate, ms: number | null, offsetMinutes: number): string {
  if (ms === null) return t("tenant.common_states.never");
  return localDateTime(ms, offsetMinutes);
}

/** The online or offline badge of a unit. */
export function StatusBadge({ t, status }: { t: Translate; status: string }) {
  const online = status === "online";
  return (
    <span className={`badge ${online ? "badge-green" : "badge-red"}`}>
      {t(`tenant.dashboard.units.${online ? "online" : "offline"}`)}
    </span>
  );
}
