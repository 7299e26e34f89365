/**
 * Devices for the benchmarks, written straight to the store in the shape the device services
 * store them (not validated, no broker account, a placeholder password hash): a station with
 * its SSRs and units, and the meter of a unit.
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

/** What tells the benchmarks' stations apart. */
interface BenchStation {
  name: string;
  serial: string;
  stationId: string;
  zoneId: number;
  customerId: number | null;
  ssrs: SSR[];
  units: StationUnit[];
  /** Epoch ms of its creation. */
  at: number;
}

const LOCATION = JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" });

/** Creates a station (in Monterrey, MQTT user `mq-<serial>`); throws when the store refuses. */
export async function createBenchStation(kv: Deno.Kv, s: BenchStation): Promise<StoredDevice> {
  const res = await createDevice(kv, null, (id) => ({
    id,
    type: "station",
    name: s.name,
    serial_number: s.serial,
    station_id: s.stationId,
    parent_id: null,
    zone_id: s.zoneId,
    location: LOCATION,
    customer_id: s.customerId,
    tenant_id: null,
    config: {
      mqtt: { username: `mq-${s.serial}`, topic_prefix: stationTopicPrefix(s.serial) },
      station: { ssrs: s.ssrs, units: s.units },
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
