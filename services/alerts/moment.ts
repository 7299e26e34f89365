/**
 * The readings around an alert's moment (issue 30): the meter's measurement that tripped it
 * (power, voltage, power factor…) from an hour before the alert opened to an hour after, as
 * `/admin/alerts?id=` draws it. The store's finest buckets (15 minutes) are read three ways
 * (average, lowest, highest), so a short excursion still shows in the band between the two.
 */
import type { Deps } from "../deps.ts";
import type { Alert } from "../../core/alerts.ts";
import { COUNTER_KEYS, MEASUREMENT_KEYS, type MeasurementKey } from "../../core/devices.ts";
import { getAlertEntry } from "../../db/alerts.ts";
import { type Point, TelemetryUnavailableError } from "../../db/telemetry/mod.ts";

/** How far before and after the alert's opening the chart reaches. */
export const MOMENT_MS = 3_600_000;
const BUCKET_MS = 15 * 60_000;

/** The readings of one measurement around an alert's opening. */
export interface AlertMoment {
  key: MeasurementKey;
  /** The range drawn, [from, to), and the alert's opening within it (epoch ms). */
  from: number;
  to: number;
  at: number;
  /** Per 15-minute bucket (its start): the average, the lowest and the highest reading. */
  avg: Point[];
  min: Point[];
  max: Point[];
  /** The telemetry store could not answer (nothing is drawn rather than zeros). */
  unavailable: boolean;
}

/** The measurement an alert's chart draws: the one that tripped it, when it is a reading. */
function chartKey(a: Alert): MeasurementKey | null {
  const k = a.key as MeasurementKey | null;
  return k && MEASUREMENT_KEYS.includes(k) && !COUNTER_KEYS.includes(k) ? k : null;
}

/** Alert `id` with the readings around its opening (null moment: nothing to draw); null when gone. */
export async function alertWithMoment(
  deps: Deps,
  id: string,
): Promise<{ alert: Alert; moment: AlertMoment | null } | null> {
  const entry = await getAlertEntry(deps.kv, id);
  if (!entry) return null;
  const alert = entry.value;
  const key = chartKey(alert);
  if (!key) return { alert, moment: null };
  const at = alert.opened_at;
  const from = Math.floor((at - MOMENT_MS) / BUCKET_MS) * BUCKET_MS;
  const to = Math.ceil((at + MOMENT_MS) / BUCKET_MS) * BUCKET_MS;
  const moment: AlertMoment = { key, from, to, at, avg: [], min: [], max: [], unavailable: false };
  try {
    const read = (agg: "avg" | "min" | "max") =>
      deps.telemetry.series(alert.subject, key, from, to, "15m", agg);
    [moment.avg, moment.min, moment.max] = await Promise.all([
      read("avg"),
      read("min"),
      read("max"),
    ]);
  } catch (e) {
    if (!(e instanceof TelemetryUnavailableError)) throw e;
    moment.unavailable = true;
  }
  return { alert, moment };
}
