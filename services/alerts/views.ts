/** The open alerts a station's or sensor's page shows (issue 30), their readings worded. */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { Alert } from "../../core/alerts.ts";
import { formatter } from "../../core/format.ts";
import { clockOf } from "../platform/clock.ts";
import { alertsFor } from "./actions.ts";
import { valueText } from "./words.ts";

/** What the pages draw. */
export interface OpenAlertsView {
  alerts: Alert[];
  /** Alert id → its tripping reading, worded. */
  values: Record<string, string>;
  offsetMinutes: number;
  /** The page the forms come back to. */
  back: string;
}

/** The unresolved alerts of a station or of one meter, at most 50. */
export async function openAlertsView(
  deps: Deps,
  viewer: User,
  lang: string,
  of: { station_id?: number; device_id?: number },
  back: string,
): Promise<OpenAlertsView> {
  const { alerts } = await alertsFor(deps, viewer, { ...of, state: "active", page: 1, size: 50 });
  const offsetMinutes = clockOf(deps).offsetMinutes();
  const f = formatter(lang, offsetMinutes);
  return {
    alerts,
    values: Object.fromEntries(alerts.map((a) => [a.id, valueText(a, f)])),
    offsetMinutes,
    back,
  };
}
