/**
 * Stations and sensors (spec 000 section 3): the shapes the portal stores and serves,
 * the device status values, and the realtime measurement keys.
 */

/** Device status values; `unknown` is the default. */
const DEVICE_STATUSES = ["online", "offline", "error", "alarm", "unknown"] as const;
/** A device status. */
export type DeviceStatus = typeof DEVICE_STATUSES[number];

/** A solid-state relay of a station (`ssr_N`). */
export interface SSR {
  id: string;
  name: string;
  type: "normal" | "emergency";
  gpio_pin: number;
}

/** A unit of a station (`unit_N`), switched by one SSR, occupied by a tenant. */
export interface StationUnit {
  id: string;
  name: string;
  ssr_id: string;
  station_id?: number;
  tenant_id?: number | null;
}

/** MQTT settings of a device as served (the password is write-only, never served). */
interface MqttConfig {
  username: string;
  topic_prefix: string;
}

/** What a station's `config.station` holds. */
interface StationConfig {
  ssrs: SSR[];
  units: StationUnit[];
}

/** What a sensor's `config.sensor` holds. */
interface SensorConfig {
  unit_id: string | null;
  tenant_id: number | null;
  ip_address: string;
  /** On the station's main feed (the building's meter for its CFE bill); never billed. */
  master?: boolean;
}

/** A station or a sensor as stored and served (without secrets). */
export interface Device {
  id: number;
  type: "station" | "sensor";
  name: string;
  serial_number: string;
  /** Stations: the operator's station id; sensors: `{station_id}_{serial}`. */
  station_id: string;
  /** Sensors: the id of their station; stations: null. */
  parent_id: number | null;
  zone_id: number | null;
  status: DeviceStatus;
  /** Epoch ms of the last message, or null. */
  last_seen: number | null;
  /** Stations: JSON string with street, street_number, colony, postal_code, city, state, country, indications. */
  location: string;
  customer_id: number | null;
  tenant_id: number | null;
  config: {
    mqtt: MqttConfig;
    station?: StationConfig;
    sensor?: SensorConfig;
  };
  created_at: number;
  updated_at: number;
}

/** A device as stored: the public fields (no status) plus the MQTT password hash. */
export interface StoredDevice extends Omit<Device, "status" | "last_seen"> {
  /** PBKDF2 hash of the MQTT password (`services/devices/broker_accounts.ts`); never served. */
  mqtt_password_hash: string;
  /**
   * The MQTT password sealed with the portal's secret (`services/platform/mqtt_passwords.ts`), so it
   * can be given to an external broker and used to test the connection; never served.
   * Missing on devices whose password was set before it was kept.
   */
  mqtt_password_sealed?: string;
}

/** What a station list shows and searches of a station, without its sensors or secrets. */
export interface StationSummary {
  id: number;
  name: string;
  serial_number: string;
  station_id: string;
  customer_id: number | null;
  zone_id: number | null;
  location: string;
  /** How many units the station has. */
  units: number;
  created_at: number;
}

/** The counts kept with the writes. */
export type DeviceCountName = "stations" | "sensors" | "units";
/** Device counts of the whole fleet. */
export type DeviceCounts = Record<DeviceCountName, number>;

/**
 * Realtime measurement keys (spec 000 section 3): totals and per phase a, b, c. Energy
 * keys are kWh (meters count Wh; ingest divides by 1000).
 */
export const MEASUREMENT_KEYS = [
  "total_power",
  "total_apparent_power",
  "total_current",
  "total_energy_kwh",
  "total_returned_kwh",
  "total_pf",
  ...(["a", "b", "c"] as const).flatMap((p) => [
    `phase_${p}_power`,
    `phase_${p}_apparent_power`,
    `phase_${p}_current`,
    `phase_${p}_voltage`,
    `phase_${p}_pf`,
    `phase_${p}_energy_kwh`,
    `phase_${p}_returned_kwh`,
  ]),
] as const;

/** A realtime measurement key. */
export type MeasurementKey = typeof MEASUREMENT_KEYS[number];

/** Keys that are perpetual counters (only grow, except on a meter reset). */
export const COUNTER_KEYS: readonly MeasurementKey[] = MEASUREMENT_KEYS.filter((k) =>
  k.endsWith("_kwh")
);

/** MQTT topic prefix of a sensor: `sensor/{serial lowercased}`. */
export function sensorTopicPrefix(serial: string): string {
  return `sensor/${serial.toLowerCase()}`;
}

/** MQTT topic prefix of a station: `station/{serial}`. */
export function stationTopicPrefix(serial: string): string {
  return `station/${serial}`;
}

/** The sensor's station id: `{station_id}_{serial}`. */
export function sensorStationId(stationId: string, serial: string): string {
  return `${stationId}_${serial}`;
}

/** Payment status of a station as served (spec 000 section 3); `other` until billing exists. */
const PAYMENT_STATUSES = ["paid", "due", "overdue", "other"] as const;
/** A station's payment status. */
export type PaymentStatus = typeof PAYMENT_STATUSES[number];

/** Fewest and most SSRs a station has (spec 000 section 9). */
export const MIN_SSRS = 1;
/** Most SSRs a station has. */
export const MAX_SSRS = 12;
/** Highest GPIO pin an SSR may use (pins 0 to 19). */
export const MAX_GPIO_PIN = 19;

/**
 * A device as the API and the pages serve it: the stored device, its status (for stations
 * the effective status of spec 000 section 4), and the names it points at. `config.mqtt` is
 * present for admins only and never carries the password.
 */
export interface DeviceView extends Omit<Device, "config"> {
  config: {
    mqtt?: MqttConfig;
    station?: StationConfig;
    sensor?: SensorConfig;
  };
  /** The station's customer (sensors: their station's), or null. */
  customer: { full_name: string } | null;
  /** Sensors: their tenant, or null; stations: null. */
  tenant: { full_name: string } | null;
  /** A station's pricing zone (its name), or null when it has none. */
  zone: { name: string } | null;
  payment_status: PaymentStatus;
  /**
   * Sensors, as the admin sees them: their client certificate's expiry (ISO date) and days
   * left, or null before one was issued. Absent for stations and other roles.
   */
  certificate?: { expires: string; days_until_expiry: number } | null;
}

/** Device stats of spec 000 section 3, limited to the devices the caller may see. */
export interface DeviceStats {
  stationCount: number;
  sensorCount: number;
  /** Visible stations and sensors whose own status is online. */
  onlineCount: number;
  unitCount: number;
}

/** A disconnect event of a device (spec 000 section 3, uptime record). Times in epoch ms. */
export interface DisconnectEvent {
  disconnect_time: number;
  /** When it came back, or null while still disconnected. */
  reconnect_time: number | null;
  still_disconnected: boolean;
  /** Seconds offline (whole seconds), or null while still disconnected. */
  duration_seconds: number | null;
  /** Why ingest declared it offline. */
  reason: "online_false" | "will" | "silence";
}

/**
 * Whether a device goes offline for `reason`, given its stored status and whether it was ever
 * heard from (a status of its own or a last_seen). A device already offline stays as it is. A
 * device never heard from that is merely silent has not been installed yet: it keeps the
 * spec's default status `unknown` (not offline, no disconnect event, nobody notified); a Last
 * Will or an online `false` means it did connect, so those take it offline.
 */
export function goesOffline(
  status: DeviceStatus,
  heardFrom: boolean,
  reason: DisconnectEvent["reason"],
): boolean {
  if (status === "offline") return false;
  return heardFrom || reason !== "silence";
}

/** The MQTT connection of a sensor as its page says it (spec 000 section 4). */
export type MqttConnection = "unknown" | "connected" | "disconnected";

/**
 * A sensor's MQTT connection: connected when online (or after a successful connection test),
 * unknown while its status is unknown and untested, disconnected otherwise.
 */
export function mqttConnection(status: string, testedOk = false): MqttConnection {
  if (status === "online" || testedOk) return "connected";
  return status === "unknown" ? "unknown" : "disconnected";
}

/** How long after its creation a change makes a sensor "edited" (spec 000 section 9). */
export const EDITED_AFTER_MS = 5_000;

/** Whether a device was changed more than {@link EDITED_AFTER_MS} after it was created. */
export function wasEdited(d: { created_at: number; updated_at: number }): boolean {
  return d.updated_at - d.created_at > EDITED_AFTER_MS;
}
