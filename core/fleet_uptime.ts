/**
 * The fleet's connectivity figures (the system page, spec 000 section 9) from a compact shape
 * of the fleet: each device type's sorted creation times, built once per state of the fleet,
 * and only the devices that had disconnections in the window, so a figure costs what the
 * disconnections cost, not what the fleet's size does.
 */
import { type DisconnectEvent, uptimeOver } from "./uptime.ts";

/** A device as the shape is built from: when it came to exist, whether it was heard, now. */
export interface FleetMember {
  created_at: number;
  /** False for a device never heard from: it never counts as online. */
  heard: boolean;
  /** Whether it is online now. */
  online: boolean;
}

/** A device with its disconnect events in a window (any order; an open one lasts until the end). */
interface MemberEvents {
  created_at: number;
  heard: boolean;
  events: readonly DisconnectEvent[];
}

/** The devices of one type, compactly. */
export interface FleetShape {
  /** How many there are, and how many are online now. */
  count: number;
  online: number;
  /** Creation times, ascending, and their running sums (`createdSums[i]` sums the first i). */
  created: readonly number[];
  createdSums: readonly number[];
  /** Creation times of those heard from, ascending. */
  heard: readonly number[];
}

/** The shape of a list of devices of one type. */
export function fleetShape(members: readonly FleetMember[]): FleetShape {
  const created = members.map((m) => m.created_at).sort((a, b) => a - b);
  const createdSums = [0];
  for (const c of created) createdSums.push(createdSums[createdSums.length - 1] + c);
  return {
    count: members.length,
    online: members.filter((m) => m.online).length,
    created,
    createdSums,
    heard: members.filter((m) => m.heard).map((m) => m.created_at).sort((a, b) => a - b),
  };
}

/**
 * How many devices existed at each of `times` (created by then), and how many of those were
 * online then: heard from and not inside a disconnect event. `withEvents` holds the devices
 * of the shape that had disconnections (others may be left out).
 */
export function connectivityOf(
  shape: FleetShape,
  withEvents: readonly MemberEvents[],
  times: readonly number[],
): { up: number; total: number }[] {
  const affected = withEvents.filter((m) => m.heard && m.events.length > 0);
  return times.map((t) => {
    let down = 0;
    for (const m of affected) {
      if (
        m.created_at <= t &&
        m.events.some((e) => e.disconnect_time <= t && t < (e.reconnect_time ?? Infinity))
      ) down++;
    }
    return { up: countAtMost(shape.heard, t) - down, total: countAtMost(shape.created, t) };
  });
}

/**
 * Observed and online seconds of the devices of a shape over `[from, now)`, each observed from
 * when it came to exist: a device without disconnections was online all that time; those in
 * `withEvents` (devices of the shape with their events in the window) count by `uptimeOver`.
 */
export function fleetUptime(
  shape: FleetShape,
  withEvents: readonly MemberEvents[],
  from: number,
  now: number,
): { observed_seconds: number; online_seconds: number } {
  // Each device created by `from` is observed the whole window; later ones since creation.
  const before = countAtMost(shape.created, from);
  const by = countAtMost(shape.created, now);
  let observed = before * (now - from) + (by - before) * now -
    (shape.createdSums[by] - shape.createdSums[before]);
  let online = observed;
  for (const m of withEvents) {
    if (m.events.length === 0) continue;
    const u = uptimeOver(m.events, from, now, m.created_at, now);
    const whole = Math.max(0, now - Math.max(from, m.created_at));
    observed += u.observed_seconds * 1000 - whole;
    online += u.online_duration_seconds * 1000 - whole;
  }
  return {
    observed_seconds: Math.round(observed / 1000),
    online_seconds: Math.round(online / 1000),
  };
}

/** How many of the ascending `values` are at most `t`. */
function countAtMost(values: readonly number[], t: number): number {
  let lo = 0, hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
