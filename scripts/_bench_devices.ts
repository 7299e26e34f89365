/**
 * Devices for the benchmarks, written straight to the store in the shape the device services
 * store them (not validated, no broker account, a placeholder password hash): a station with
 * its SSRs and units, the meter of a unit, and a fleet's station with a tenant's meter in each
 * unit.
 */
import {
  sensorStationId,
  sensorTopicPrefix,
  type SSR,
  stationTopicPrefix,
  type StationUnit,
  type StoredDevice,
} from "../core/devices.ts";
import { createDevice } from "../db/devices.ts";
import { createUser } from "../db/users.ts";

/** What tells the benchmarks' stations apart. */
interface BenchStation {
  name: string;
  serial: string;
  /** Default: the serial in lower case. */
  stationId?: string;
  zoneId: number;
  /** Default: none. */
  customerId?: number | null;
  /** Default: one normal SSR `ssr_1` on GPIO 0. */
  ssrs?: SSR[];
  units: StationUnit[];
  /** Epoch ms of its creation. */
  at: number;
}

const LOCATION = JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" });
const ONE_SSR: SSR[] = [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }];

/** `count` units `unit_1`… on SSR `ssr_1`, named `Depto 1`… or as `name` says. */
export function benchUnits(
  count: number,
  name = (n: number) => `Depto ${n}`,
): StationUnit[] {
  return Array.from({ length: count }, (_, u) => ({
    id: `unit_${u + 1}`,
    name: name(u + 1),
    ssr_id: "ssr_1",
  }));
}

/** Creates a station (in Monterrey, MQTT user `mq-<serial>`); throws when the store refuses. */
export async function createBenchStation(kv: Deno.Kv, s: BenchStation): Promise<StoredDevice> {
  const res = await createDevice(kv, null, (id) => ({
    id,
    type: "station",
    name: s.name,
    serial_number: s.serial,
    station_id: s.stationId ?? s.serial.toLowerCase(),
    parent_id: null,
    zone_id: s.zoneId,
    location: LOCATION,
    customer_id: s.customerId ?? null,
    tenant_id: null,
    config: {
      mqtt: { username: `mq-${s.serial}`, topic_prefix: stationTopicPrefix(s.serial) },
      station: { ssrs: s.ssrs ?? ONE_SSR, units: s.units },
    },
    created_at: s.at,
    updated_at: s.at,
    mqtt_password_hash: "x",
  }));
  if (!res.ok) throw new Error(`station ${s.serial}: ${JSON.stringify(res)}`);
  return res.device;
}

/** What tells the benchmarks' meters apart. */
interface BenchMeter {
  name: string;
  serial: string;
  unitId: string;
  tenantId: number | null;
  /** Epoch ms of its creation. */
  at: number;
}

/** Creates the meter of a unit of station `stationId`; throws when the store refuses. */
export async function createBenchMeter(
  kv: Deno.Kv,
  stationId: number,
  m: BenchMeter,
): Promise<StoredDevice> {
  const res = await createDevice(kv, stationId, (id, parent) => ({
    id,
    type: "sensor",
    name: m.name,
    serial_number: m.serial,
    station_id: sensorStationId(parent!.station_id, m.serial),
    parent_id: stationId,
    zone_id: null,
    location: "",
    customer_id: null,
    tenant_id: m.tenantId,
    config: {
      mqtt: { username: `mq-${m.serial}`, topic_prefix: sensorTopicPrefix(m.serial) },
      sensor: { unit_id: m.unitId, tenant_id: m.tenantId, ip_address: "10.0.0.1" },
    },
    created_at: m.at,
    updated_at: m.at,
    mqtt_password_hash: "x",
  }));
  if (!res.ok) throw new Error(`meter ${m.serial}: ${JSON.stringify(res)}`);
  return res.device;
}

/** Tenant number `n` (`t<n>@<domain>`, `Inquilino <n>`): the first can sign in with `firstHash`. */
export async function createBenchTenant(
  kv: Deno.Kv,
  n: number,
  domain: string,
  firstHash: string,
): Promise<number> {
  const tenant = await createUser(kv, {
    email: `t${n}@${domain}`,
    full_name: `Inquilino ${n}`,
    role: "user",
    password_hash: n === 1 ? firstHash : "x",
  }, Date.now());
  return tenant.id;
}

/**
 * Station `ST-<i, 6 digits>` (`Estación <i>`) of zone `zoneId` with `units` units on one SSR,
 * and in each unit a meter `M<i>-<unit>` of the tenant `tenantOf` gives.
 */
export async function createBenchFleetStation(
  kv: Deno.Kv,
  i: number,
  o: { units: number; zoneId: number; at: number; tenantOf: () => Promise<number> },
): Promise<{ station: StoredDevice; meters: StoredDevice[] }> {
  const serial = `ST-${String(i).padStart(6, "0")}`;
  const units = benchUnits(o.units);
  const station = await createBenchStation(kv, {
    name: `Estación ${i}`,
    serial,
    zoneId: o.zoneId,
    units,
    at: o.at,
  });
  const meters = [];
  for (const unit of units) {
    const tenantId = await o.tenantOf();
    const name = `M${i}-${unit.id}`;
    meters.push(
      await createBenchMeter(kv, station.id, {
        name,
        serial: name,
        unitId: unit.id,
        tenantId,
        at: o.at,
      }),
    );
  }
  return { station, meters };
}
