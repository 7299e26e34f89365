/** Formatting of the tenant pages: local times and status badges (money and numbers: `core/format.ts`). */
import type { Translate } from "../../services/platform/i18n.ts";
import { localDateTime } from "../../core/local_time.ts";

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
