/**
 * Uptime from disconnect events (spec 000 sections 3 and 9): the share of a period a
 * device was online, the online duration, the colour bands, and the estimate of energy
 * missed while offline.
 */

/** A disconnection: from `disconnect_time` until `reconnect_time` (null while ongoing). */
export interface DisconnectEvent {
  disconnect_time: number;
  reconnect_time: number | null;
}

/** Uptime of one device over one period. */
interface Uptime {
  /** Percent with one decimal, or null when the period holds no observed time. */
  uptime_percent: number | null;
  online_duration_seconds: number;
  offline_duration_seconds: number;
  observed_seconds: number;
}

/** Only the 10 most recent disconnect events are listed on the sensor page. */
export const MAX_LISTED_EVENTS = 10;
/** Estimated consumption missed per offline hour, kWh. */
const MISSED_KWH_PER_HOUR = 0.5;

/**
 * Uptime over [from, to), observed only from `since` (when the device came to exist) and
 * not beyond `now`. Overlapping or unordered events are merged.
 */
export function uptimeOver(
  events: readonly DisconnectEvent[],
  from: number,
  to: number,
  since: number,
  now: number,
): Uptime {
  const start = Math.max(from, since);
  const end = Math.min(to, now);
  if (end <= start) {
    return {
      uptime_percent: null,
      online_duration_seconds: 0,
      offline_duration_seconds: 0,
      observed_seconds: 0,
    };
  }
  const intervals = events
    .map((e) => [Math.max(e.disconnect_time, start), Math.min(e.reconnect_time ?? now, end)])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let offline = 0;
  let curA = -Infinity;
  let curB = -Infinity;
  for (const [a, b] of intervals) {
    if (a > curB) {
      if (curB > curA) offline += curB - curA;
      curA = a;
      curB = b;
    } else if (b > curB) curB = b;
  }
  if (curB > curA) offline += curB - curA;
  const observed = end - start;
  const online = observed - offline;
  return {
    uptime_percent: Math.round((online / observed) * 1000) / 10,
    online_duration_seconds: Math.round(online / 1000),
    offline_duration_seconds: Math.round(offline / 1000),
    observed_seconds: Math.round(observed / 1000),
  };
}

/** Estimated energy missed while offline: offline hours times 0.5 kWh, 2 decimals. */
export function missedEnergyKwh(offlineSeconds: number): number {
  return Math.round((offlineSeconds / 3600) * MISSED_KWH_PER_HOUR * 100) / 100;
}

/** Colour band of an uptime on the sensor page: ≥98 dark green, ≥90 green, ≥80 yellow, ≥70 orange, else red. */
export function sensorUptimeColor(
  percent: number,
): "dark_green" | "green" | "yellow" | "orange" | "red" {
  if (percent >= 98) return "dark_green";
  if (percent >= 90) return "green";
  if (percent >= 80) return "yellow";
  if (percent >= 70) return "orange";
  return "red";
}

/** Colour band of an uptime on the system page: above 90 green, above 70 amber, else red. */
export function systemUptimeColor(percent: number): "green" | "amber" | "red" {
  if (percent > 90) return "green";
  if (percent > 70) return "amber";
  return "red";
}

/** The first instant of a `YYYY-MM` month (UTC) and of the month after it. */
export function monthRange(month: string): { from: number; to: number } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new RangeError(`month must be YYYY-MM, got "${month}"`);
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  return { from: Date.UTC(y, mo, 1), to: Date.UTC(y, mo + 1, 1) };
}
