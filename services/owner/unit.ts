/**
 * A unit of an owner's installation (spec 001 section 2, "Customer unit detail"): its meter's
 * live values per phase, a month's usage, uptime and disconnections, and the unit's facts.
 * A meter that is missing, of another station or another owner's is not found.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceView } from "../../core/devices.ts";
import { clockOf } from "../platform/clock.ts";
import { LISTED_DISCONNECTIONS, POWER_FACTOR_FALLBACK } from "../../core/owner_rules.ts";
import { monthlyUptime } from "../measurements.ts";
import { notFound, Refusal } from "../refusal.ts";
import { ownerStation } from "./stations.ts";
import { meterMonth } from "./installation.ts";

/** The message of a unit that is missing or not the caller's. */
const OWNER_UNIT_NOT_FOUND = "customer.unit_detail.errors.failed_unit_data";

/** One phase: power W, current A, voltage V, this month's energy kWh. */
interface PhaseNow {
  power: number;
  current: number;
  voltage: number;
  energy: number;
}

/** A disconnection as listed (epoch ms; duration in seconds). */
interface Disconnection {
  at: number;
  durationSeconds: number;
  ongoing: boolean;
}

/** Everything the unit page shows. */
export interface OwnerUnit {
  sensor: DeviceView;
  station: DeviceView;
  name: string;
  unitId: string | null;
  tenant: string | null;
  month: string;
  powerW: number;
  monthKwh: number;
  phases: PhaseNow[];
  /** Power factor 0-1 (the fallback when the meter never sent one). */
  powerFactor: number;
  readingAt: number | null;
  uptime: {
    percent: number | null;
    onlineSeconds: number;
    /** Disconnections this month, and the most recent ones (newest first). */
    total: number;
    recent: Disconnection[];
  };
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The caller's unit measured by sensor `sensorId` of installation `stationId`, with the usage and
 * uptime of `month` (`YYYY-MM`, default this month; the installation page passes its month).
 */
export async function ownerUnit(
  deps: Deps,
  user: User,
  stationId: number,
  sensorId: number,
  month?: string,
): Promise<OwnerUnit> {
  const { station, sensors } = await ownerStation(deps, user, stationId).catch((e) => {
    throw e instanceof Refusal ? notFound(OWNER_UNIT_NOT_FOUND) : e;
  });
  const sensor = sensors.find((s) => s.id === sensorId);
  if (!sensor) throw notFound(OWNER_UNIT_NOT_FOUND);
  month ??= clockOf(deps).month();
  const unitId = sensor.config.sensor?.unit_id ?? null;
  const unit = station.config.station?.units.find((u) => u.id === unitId);
  const latest = await deps.telemetry.latest(sensor.serial_number);
  const v = latest?.values ?? {};
  const online = sensor.status === "online";
  const energy = await meterMonth(deps, sensor, month);
  const phases = (["a", "b", "c"] as const).map((p, i): PhaseNow => ({
    power: online ? r2(v[`phase_${p}_power`] ?? 0) : 0,
    current: online ? r2(v[`phase_${p}_current`] ?? 0) : 0,
    voltage: online ? r2(v[`phase_${p}_voltage`] ?? 0) : 0,
    energy: energy.phases[i],
  }));
  const up = await monthlyUptime(deps, sensor, month);
  return {
    sensor,
    station,
    name: unit?.name || unitId || sensor.name,
    unitId,
    tenant: sensor.tenant?.full_name ?? null,
    month,
    powerW: online ? r2(v.total_power ?? 0) : 0,
    monthKwh: r2(energy.total),
    phases,
    powerFactor: typeof v.total_pf === "number" && v.total_pf > 0
      ? Math.abs(v.total_pf)
      : POWER_FACTOR_FALLBACK,
    readingAt: latest?.ts ?? null,
    uptime: {
      percent: up.uptime_percent,
      onlineSeconds: up.online_duration_seconds,
      total: up.total_disconnect_events,
      recent: up.disconnect_events.slice(0, LISTED_DISCONNECTIONS).map((e) => ({
        at: Date.parse(e.disconnect_time),
        durationSeconds: e.duration_seconds,
        ongoing: e.still_disconnected,
      })),
    },
  };
}
