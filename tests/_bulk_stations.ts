/**
 * Many stations at once, written straight to Deno KV (no API, no password hashing): for the
 * billing benchmarks and the tests that need hundreds of stations.
 */
import { createDevice } from "../db/devices.ts";
import { sensorTopicPrefix, stationTopicPrefix, type StoredDevice } from "../core/devices.ts";

/** One station written by {@link bulkStation}. */
export interface BulkStation {
  id: number;
  /** Unit ids and the serial of the sensor that meters each. */
  units: { unit: string; serial: string }[];
}

/**
 * A station `serial` in zone `zoneId` with `units` units (`unit_1`...), each metered by a
 * sensor named `{sensorPrefix}-{i}`, without tenant or customer.
 */
export async function bulkStation(
  kv: Deno.Kv,
  o: { serial: string; name: string; zoneId: number; units: number; sensorPrefix: string },
): Promise<BulkStation> {
  const now = new Date().toISOString();
  const base = { location: "{}", customer_id: null, tenant_id: null, created_at: now };
  const unitIds = Array.from({ length: o.units }, (_, i) => `unit_${i + 1}`);
  const st = await createDevice(kv, null, (id) => ({
    ...base,
    id,
    type: "station",
    name: o.name,
    serial_number: o.serial,
    station_id: o.serial.toLowerCase(),
    parent_id: null,
    zone_id: o.zoneId,
    config: {
      mqtt: { username: `mq-${o.serial}`, topic_prefix: stationTopicPrefix(o.serial) },
      station: {
        ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
        units: unitIds.map((u) => ({ id: u, name: u, ssr_id: "ssr_1" })),
      },
    },
    updated_at: now,
    mqtt_password_hash: "x",
  } as unknown as StoredDevice));
  if (!st.ok) throw new Error(`station ${o.serial}: ${JSON.stringify(st)}`);
  const units: BulkStation["units"] = [];
  for (const [i, unit] of unitIds.entries()) {
    const serial = `${o.sensorPrefix}-${i}`;
    const se = await createDevice(kv, st.device.id, (id, parent) => ({
      ...base,
      id,
      type: "sensor",
      name: serial,
      serial_number: serial,
      station_id: `${parent!.station_id}_${serial}`,
      parent_id: parent!.id,
      zone_id: null,
      config: {
        mqtt: { username: `mq-${serial}`, topic_prefix: sensorTopicPrefix(serial) },
        sensor: { unit_id: unit, tenant_id: null, ip_address: "10.0.0.1" },
      },
      updated_at: now,
      mqtt_password_hash: "x",
    } as unknown as StoredDevice));
    if (!se.ok) throw new Error(`sensor ${serial}: ${JSON.stringify(se)}`);
    units.push({ unit, serial });
  }
  return { id: st.device.id, units };
}

/**
 * `n` stations named `{name} 001`... (serial `{prefix}-001`, meters `{prefix}M001-0`...) in zone
 * 1, with `units` units each, written by {@link bulkStation}.
 */
export async function bulkStations(
  kv: Deno.Kv,
  n: number,
  o: { name: string; prefix: string; units: number },
): Promise<BulkStation[]> {
  const out: BulkStation[] = [];
  for (let i = 1; i <= n; i++) {
    const num = String(i).padStart(3, "0");
    out.push(
      await bulkStation(kv, {
        serial: `${o.prefix}-${num}`,
        name: `${o.name} ${num}`,
        zoneId: 1,
        units: o.units,
        sensorPrefix: `${o.prefix}M${num}`,
      }),
    );
  }
  return out;
}
