/**
 * Measurement use cases behind `/api/measurements*` and `/api/analytics*`: the overview,
 * chart series by day, month, year and total, realtime values, history, summaries,
 * system statistics and connectivity, uptime and energy deltas. Everything is limited to
 * the sensors the viewer may see.
 */
import type { Deps } from "./deps.ts";
import type { User } from "../core/types.ts";
import type { DeviceView, MeasurementKey } from "../core/devices.ts";
import { deviceDisconnectEvents, listDeviceViews } from "./devices/mod.ts";
import { fleetConnectivity } from "./devices/connectivity.ts";
import { clockOf } from "./platform/clock.ts";
import { MAX_LISTED_EVENTS, uptimeOver } from "../core/uptime.ts";
import { connectivityOf, fleetUptime } from "../core/fleet_uptime.ts";
import { readIngestHealth } from "../db/ingest_health.ts";
import { type IngestHealth } from "../core/ingest_health.ts";
import type { UnitMeters } from "./devices/meter_usage.ts";
import { metersFor } from "./devices/tenancies.ts";
import { inFlight } from "../core/in_flight.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The dashboard overview (kW and kWh). */
export interface Overview {
  currentPower: number;
  todayYield: number;
  monthlyYield: number;
  totalYield: number;
  /** Sum of each sensor's peak power over the last 30 days, kW. */
  totalCapacity: number;
}

/** The sensors `viewer` may see. */
function visibleSensors(deps: Deps, viewer: User): Promise<DeviceView[]> {
  return listDeviceViews(deps, viewer, { type: "sensor" });
}

/**
 * The reads of each sensor's unit across its meters (histories read once), as `viewer` may
 * see them: a tenant's within their tenancies.
 */
function metersOf(deps: Deps, sensors: DeviceView[], viewer: User): Promise<UnitMeters[]> {
  return Promise.all(sensors.map((s) => metersFor(deps, viewer, s)));
}

/** Store reads of one figure at the same time (a fleet's overview reads every sensor). */
const READS_IN_FLIGHT = 8;

/** The meters' energy over [from, to), read together and added in the meters' order. */
async function sumDelta(meters: UnitMeters[], from: number, to: number) {
  const parts = await inFlight(
    meters,
    READS_IN_FLIGHT,
    (m) => m.counterDelta("total_energy_kwh", from, to),
  );
  return parts.reduce((total, kwh) => total + kwh, 0);
}

/** Current power, today's, this month's and all-time energy of the viewer's sensors. */
export async function overview(deps: Deps, viewer: User): Promise<Overview> {
  const clock = clockOf(deps);
  const now = clock.now();
  const sensors = await visibleSensors(deps, viewer);
  const meters = await metersOf(deps, sensors, viewer);
  const p = clock.localParts(now);
  const today = clock.dayStart(clock.localDate(now));
  const month = clock.monthBounds(p.year, p.month);
  // Every sensor's reads and the three sums at once, not one sensor after another.
  const [live, todayYield, monthlyYield, totalYield] = await Promise.all([
    inFlight([...sensors.keys()], READS_IN_FLIGHT, async (i) => {
      const s = sensors[i];
      const [latest, peaks] = await Promise.all([
        deps.telemetry.latest(s.serial_number),
        meters[i].series("total_power", now - 30 * DAY, now, "1d", "max"),
      ]);
      const online = s.status === "online" && latest?.values.total_power !== undefined;
      return {
        power: online ? latest!.values.total_power! : null,
        peak: peaks.reduce((m, p) => Math.max(m, p.value), 0),
      };
    }),
    sumDelta(meters, today, now),
    sumDelta(meters, month.from, now),
    sumDelta(meters, 0, now),
  ]);
  let power = 0;
  let capacity = 0;
  for (const x of live) {
    if (x.power !== null) power += x.power;
    capacity += x.peak;
  }
  return {
    currentPower: round2(power / 1000),
    todayYield: round2(todayYield),
    monthlyYield: round2(monthlyYield),
    totalYield: round2(totalYield),
    totalCapacity: round2(capacity / 1000),
  };
}

/** A chart point: the start of its interval, its label, energy in kWh, power in kW (day). */
interface ChartPoint {
  timestamp: number;
  label: string;
  energy: number;
  power?: number;
}

/** The chart of a mode: its points, the energy of the whole span, what it earned. */
export interface Chart {
  chartData: ChartPoint[];
  totalYield: number;
  totalEarning: number;
}

/** Chart modes of the dashboard. */
type ChartMode = "day" | "month" | "year" | "total";

/**
 * The dashboard chart: `day` is 96 quarter hours of power and energy, `month` the energy of
 * each local day, `year` of each month, `total` of each year since the first reading.
 * Earnings need zone prices, which come with billing; until then they are 0.
 */
export async function chart(
  deps: Deps,
  viewer: User,
  mode: ChartMode,
  date: string,
): Promise<Chart> {
  const clock = clockOf(deps);
  const now = clock.now();
  const sensors = await visibleSensors(deps, viewer);
  const start = clock.dayStart(date);
  const { year, month } = clock.localParts(start);
  const spans: { from: number; to: number; label: string }[] = [];
  if (mode === "day") {
    for (let i = 0; i < 96; i++) {
      const from = start + i * 15 * 60_000;
      spans.push({ from, to: from + 15 * 60_000, label: clock.localDateTime(from).slice(11) });
    }
  } else if (mode === "month") {
    const b = clock.monthBounds(year, month);
    for (let from = b.from; from < b.to; from += DAY) {
      spans.push({ from, to: from + DAY, label: clock.localDate(from).slice(8) });
    }
  } else if (mode === "year") {
    for (let m = 1; m <= 12; m++) {
      const b = clock.monthBounds(year, m);
      spans.push({ ...b, label: String(m).padStart(2, "0") });
    }
  } else {
    const first = firstYear(deps, sensors, now);
    for (let y = first; y <= clock.localParts(now).year; y++) {
      spans.push({ ...clock.yearBounds(y), label: String(y) });
    }
  }
  const visible = spans.filter((s) => s.from <= now);
  const meters = await metersOf(deps, sensors, viewer);
  const points: ChartPoint[] = [];
  for (const s of visible) {
    const to = Math.min(s.to, now);
    const energy = await sumDelta(meters, s.from, to);
    points.push({ timestamp: s.from, label: s.label, energy: round2(energy) });
  }
  if (mode === "day" && visible.length > 0) {
    const powerAt = new Map<number, number>();
    for (const m of meters) {
      const series = await m.series("total_power", start, start + DAY, "15m", "avg");
      for (const p of series) powerAt.set(p.ts, (powerAt.get(p.ts) ?? 0) + p.value);
    }
    for (const p of points) p.power = round2((powerAt.get(p.timestamp) ?? 0) / 1000);
  }
  const totalYield = round2(points.reduce((sum, p) => sum + p.energy, 0));
  return { chartData: points, totalYield, totalEarning: 0 };
}

function firstYear(deps: Deps, sensors: DeviceView[], now: number): number {
  const clock = clockOf(deps);
  let first = clock.localParts(now).year;
  for (const s of sensors) first = Math.min(first, clock.localParts(s.created_at).year);
  return first;
}

/** The latest values of a sensor, keyed by measurement, with their time. */
export async function realtime(deps: Deps, sensor: DeviceView) {
  const latest = await deps.telemetry.latest(sensor.serial_number);
  return {
    sensor_id: sensor.id,
    serial_number: sensor.serial_number,
    status: sensor.status,
    last_seen: sensor.last_seen,
    timestamp: latest?.ts ?? null,
    measurements: latest?.values ?? {},
  };
}

/** A day of one key (default total_power) at 15-minute or hourly resolution. */
export async function history(
  deps: Deps,
  viewer: User,
  sensor: DeviceView,
  aggregation: "15m" | "1h",
  key: MeasurementKey,
) {
  const now = deps.now();
  const meters = await metersFor(deps, viewer, sensor);
  const series = await meters.series(key, now - DAY, now, aggregation, "avg");
  return {
    data: series.map((p) => ({ measurement: key, value: round2(p.value), timestamp: p.ts })),
  };
}

/**
 * A month's summary of a sensor's energy counter: the month's consumption (`delta`, also
 * served as `avg`, the field the dashboard sums per station) and the counter's range.
 */
export async function summary(deps: Deps, viewer: User, sensor: DeviceView, month: string) {
  const [y, m] = month.split("-").map(Number);
  const clock = clockOf(deps);
  const b = clock.monthBounds(y, m);
  const to = Math.min(b.to, clock.now());
  const meters = await metersFor(deps, viewer, sensor);
  const delta = to > b.from ? await meters.counterDelta("total_energy_kwh", b.from, to) : 0;
  const counter = to > b.from
    ? await meters.series("total_energy_kwh", b.from, to, "1M", "last")
    : [];
  return {
    month,
    summaries: {
      total_energy_kwh: {
        avg: round2(delta),
        delta: round2(delta),
        last: counter.length ? round2(counter[counter.length - 1].value) : null,
      },
    },
  };
}

/** Energy of one counter key between two instants. */
export async function delta(
  deps: Deps,
  viewer: User,
  sensor: DeviceView,
  field: MeasurementKey,
  from: number,
  to: number,
) {
  return {
    sensorId: sensor.id,
    field,
    startDate: new Date(from).toISOString(),
    endDate: new Date(to).toISOString(),
    delta: round2(await (await metersFor(deps, viewer, sensor)).counterDelta(field, from, to)),
  };
}

/** Monthly uptime of a device with the three months before it and its recent events. */
export async function monthlyUptime(deps: Deps, device: DeviceView, month: string) {
  const clock = clockOf(deps);
  const now = clock.now();
  const [y, m] = month.split("-").map(Number);
  const b = clock.monthBounds(y, m);
  const events = await deviceDisconnectEvents(deps, device.id, b.from, b.to);
  const u = uptimeOver(events, b.from, b.to, device.created_at, now);
  const previous_months = [];
  for (let i = 1; i <= 3; i++) {
    const d = new Date(Date.UTC(y, m - 1 - i, 1));
    const pm = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
    const pb = clock.monthBounds(pm.year, pm.month);
    const pe = await deviceDisconnectEvents(deps, device.id, pb.from, pb.to);
    const pu = uptimeOver(pe, pb.from, pb.to, device.created_at, now);
    previous_months.push({
      month: `${pm.year}-${String(pm.month).padStart(2, "0")}`,
      uptime_percent: pu.uptime_percent,
    });
  }
  return {
    month,
    uptime_percent: u.uptime_percent,
    online_duration_seconds: u.online_duration_seconds,
    offline_duration_seconds: u.offline_duration_seconds,
    current_status: device.status,
    previous_months,
    total_disconnect_events: events.length,
    disconnect_events: events.slice(-MAX_LISTED_EVENTS).reverse().map((e) => ({
      disconnect_time: new Date(e.disconnect_time).toISOString(),
      reconnect_time: e.reconnect_time === null ? null : new Date(e.reconnect_time).toISOString(),
      still_disconnected: e.still_disconnected,
      duration_seconds: e.duration_seconds ??
        Math.round((now - e.disconnect_time) / 1000),
    })),
  };
}

/** Counts and 24-hour uptime of the fleet the viewer sees. */
export async function systemStats(deps: Deps, viewer: User) {
  const now = deps.now();
  const { shape, withEvents } = await fleetConnectivity(deps, viewer, now - DAY, now);
  const u = fleetUptime(shape.sensor, withEvents.sensor, now - DAY, now);
  return {
    stationCount: shape.station.count,
    stationsOnline: shape.station.online,
    sensorCount: shape.sensor.count,
    sensorsOnline: shape.sensor.online,
    uptime: u.observed_seconds > 0
      ? Math.round((u.online_seconds / u.observed_seconds) * 1000) / 10
      : null,
  };
}

/** Timeframes of the system page and their row width. */
const TIMEFRAMES = {
  "24h": { span: DAY, step: HOUR },
  "7d": { span: 7 * DAY, step: 6 * HOUR },
  "30d": { span: 30 * DAY, step: DAY },
} as const;

/**
 * Connectivity per row of a timeframe: how many stations and sensors were online at the
 * end of each hour (24h), six hours (7d) or day (30d), out of those that existed then.
 */
export async function systemPerformance(
  deps: Deps,
  viewer: User,
  timeframe: keyof typeof TIMEFRAMES,
) {
  const now = deps.now();
  const { span, step } = TIMEFRAMES[timeframe];
  const end = Math.floor(now / HOUR) * HOUR + HOUR;
  const from = end - span;
  const { shape, withEvents } = await fleetConnectivity(deps, viewer, from, now);
  const times: number[] = [];
  for (let t = from + step; t <= end; t += step) times.push(t);
  const at = times.map((t) => Math.min(t, now));
  const stations = connectivityOf(shape.station, withEvents.station, at);
  const sensors = connectivityOf(shape.sensor, withEvents.sensor, at);
  const share = (c: { up: number; total: number }) =>
    c.total ? Math.round((c.up / c.total) * 1000) / 10 : 0;
  const rows = times.map((t, i) => ({
    hour: new Date(t - step).toISOString(),
    stations_online: stations[i].up,
    stations_total: stations[i].total,
    station_connectivity: share(stations[i]),
    sensors_online: sensors[i].up,
    sensors_total: sensors[i].total,
    sensor_connectivity: share(sensors[i]),
  }));
  return { timeframe, data: rows };
}

export type { IngestHealth };

/** What each running ingest last published (admin): per instance and summed, at `deps.now()`. */
export function ingestHealth(deps: Deps): Promise<IngestHealth> {
  return readIngestHealth(deps.kv, deps.now());
}
