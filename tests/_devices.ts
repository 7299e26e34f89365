/** Device records as the store keeps them (`db/devices.ts`), for tests that write them directly. */
import type { StoredDevice } from "../core/devices.ts";

/** A station with one SSR and the units `unit_1` and `unit_2`. */
export function storedStation(
  id: number,
  serial: string,
  over: Partial<StoredDevice> = {},
): StoredDevice {
  return {
    id,
    type: "station",
    name: `Station ${serial}`,
    serial_number: serial,
    station_id: `st_${serial}`,
    parent_id: null,
    zone_id: null,
    location: "",
    customer_id: null,
    tenant_id: null,
    config: {
      mqtt: { username: `u-${serial}`, topic_prefix: `station/${serial}` },
      station: {
        ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
        units: [
          { id: "unit_1", name: "U1", ssr_id: "ssr_1" },
          { id: "unit_2", name: "U2", ssr_id: "ssr_1" },
        ],
      },
    },
    created_at: 1,
    updated_at: 1,
    mqtt_password_hash: "h",
    ...over,
  };
}

/** A sensor of station `parent` bound to `unit`. */
export function storedSensor(
  id: number,
  parent: number,
  serial: string,
  unit: string,
): StoredDevice {
  return {
    ...storedStation(id, serial),
    type: "sensor",
    parent_id: parent,
    config: {
      mqtt: { username: `u-${serial}`, topic_prefix: `sensor/${serial.toLowerCase()}` },
      sensor: { unit_id: unit, tenant_id: null, ip_address: "10.0.0.1" },
    },
  };
}
