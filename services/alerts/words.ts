/**
 * An alert in a reader's words (issue 30): its rule's name, the reading that tripped it with its
 * unit, and the texts of a message about one of its transitions (worded when sent, in the
 * recipient's language; services/messages/render.ts).
 */
import type { Deps } from "../deps.ts";
import type { Alert } from "../../core/alerts.ts";
import type { Formatter } from "../../core/format.ts";
import { getAlertEntry } from "../../db/alerts.ts";
import { getDevice } from "../../db/devices.ts";

type T = (key: string, params?: Record<string, string | number>) => string;

/** The tripping value with its unit, or "". */
export function valueText(a: Alert, f: Formatter): string {
  if (a.value === null) return "";
  switch (a.template) {
    case "voltage_band":
    case "phase_lost":
      return `${f.number(a.value, 1)} V`;
    case "reverse_power":
    case "high_power":
      return f.kw(a.value / 1000);
    case "low_pf":
      return f.number(a.value, 2);
    case "night_usage":
    case "daily_usage":
      return f.kwh(a.value);
    case "no_data":
      return `${f.number(a.value, 0)} min`;
    case "cert_expiry":
      return `${f.number(a.value, 0)} d`;
  }
}

/** The values of a message about alert `id`'s transition `what`, and its link; null when gone. */
export async function alertMessage(
  deps: Deps,
  id: string,
  what: string,
  t: T,
  f: Formatter,
): Promise<{ values: Record<string, string>; link: string } | null> {
  const entry = await getAlertEntry(deps.kv, id);
  if (!entry) return null;
  const a = entry.value;
  const station = await getDevice(deps.kv, a.station_id);
  return {
    values: {
      state: t(`alerts.transitions.${what}`),
      rule: t(`alerts.templates.${a.template}`),
      meter: a.subject,
      station: station?.name ?? "",
      since: f.dateTime(a.opened_at),
      value: valueText(a, f) || "—",
    },
    link: `/admin/alerts?id=${encodeURIComponent(a.id)}`,
  };
}
