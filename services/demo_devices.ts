/**
 * The demo's station: three units metered by simulated Shelly Pro 3EM meters, owned by the
 * demo customer, one unit occupied by the demo tenant; two months of history written through
 * the real Shelly parsing path, and live meters that publish to the broker while the demo
 * runs. Idempotent: an existing demo station is kept as it is.
 */
import type { Deps } from "./deps.ts";
import type { User } from "../core/types.ts";
import { sensorBodySchema, stationBodySchema, validateDeviceBody } from "../core/device_rules.ts";
import { assignCustomer, createSensor, createStation, deviceMqttPassword } from "./devices/mod.ts";
import { findBySerial } from "../db/devices.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { createZone, listZones } from "../db/zones.ts";
import { type Zone, zoneBodyFromForm } from "../core/zone.ts";
import {
  createMeter,
  DEFAULT_SIM_NAMING,
  notifyFullStatus,
  simIdentity,
  stepMeter,
} from "../ingest/sim.ts";
import { DEFAULT_INTERPRET, interpretMessage, newMeterState } from "../ingest/shelly.ts";
import { connectSimMeter, type SimMeter } from "../ingest/sim_meter.ts";
import type { Sample } from "../db/telemetry/mod.ts";
import { stationTopicPrefix } from "../core/devices.ts";
import { clockOf } from "./platform/clock.ts";
import mqtt from "mqtt";

/** Serial of the demo station. */
export const DEMO_STATION_SERIAL = "DEMO-ST-01";
/** MQTT credentials of the demo station's controller. */
const DEMO_STATION_MQTT = { username: "demo-station-01", password: "demo-station-pass" };
/** How many simulated meters the demo station has. */
const DEMO_METERS = 3;
/**
 * Serials and credentials of the demo's meters: the simulator's serials and usernames
 * (`SIM0001`, `sim0001`), with passwords long enough for the device password rule
 * (`demo-sim0001-pass`).
 */
export const DEMO_SIM_NAMING = { ...DEFAULT_SIM_NAMING, password: "demo-{serial_lower}-pass" };

/**
 * Days of history the demo writes: enough to cover the whole previous month, so that the
 * admin can bill a closed month with real amounts and the tenant has a bill to pay.
 */
const HISTORY_DAYS = 62;

/** Name of the demo's pricing zone. */
export const DEMO_ZONE_NAME = "CFE Tarifa 1 (demo)";

/**
 * The demo's pricing zone: CFE residential tariff 1 with January 2024 prices
 * (75 kWh at 1.015, the next 65 at 1.239, the rest at 3.620 MXN), IVA 16 %, and the owner's
 * commission of 5 % plus 50 MXN per unit and 16 % tax on both.
 */
export function demoZoneBody(name = DEMO_ZONE_NAME): Zone {
  return zoneBodyFromForm({
    name,
    enable_levels: true,
    tax_percentage: 16,
    customer_commission: 5,
    customer_fee: 50,
    customer_tax: 16,
    levels: [
      { price: 1.015, threshold: 75 },
      { price: 1.239, threshold: 140 },
      { price: 3.62, threshold: 0 },
    ],
  });
}

/** The demo's zone, created once; answers its id. */
async function demoZone(deps: Deps): Promise<number> {
  const existing = (await listZones(deps.kv)).find((z) => z.name === DEMO_ZONE_NAME);
  if (existing) return existing.id;
  return (await createZone(deps.kv, demoZoneBody(), deps.now())).id;
}

/** Creates the demo station and its sensors once; returns the meters' serials. */
export async function seedDemoDevices(
  deps: Deps,
  admin: User,
  customer: User | null,
  tenant: User | null,
): Promise<string[]> {
  const serials = Array.from(
    { length: DEMO_METERS },
    (_, i) => simIdentity(i + 1, DEMO_SIM_NAMING).serial,
  );
  if (await findBySerial(deps.kv, DEMO_STATION_SERIAL)) return serials;
  const station = validateDeviceBody(stationBodySchema("create"), {
    name: "Residencial Las Palmas",
    location: JSON.stringify({
      street: "Av. Constitución",
      street_number: "1200",
      colony: "Centro",
      postal_code: "64000",
      city: "Monterrey",
      state: "Nuevo León",
      country: "México",
      indications: "Gabinete junto al acceso principal",
    }),
    serial_number: DEMO_STATION_SERIAL,
    station_id: "las_palmas",
    zone_id: await demoZone(deps),
    type: "station",
    config: {
      mqtt: { ...DEMO_STATION_MQTT, topic_prefix: "" },
      station: {
        ssrs: [1, 2, 3].map((n) => ({
          id: `ssr_${n}`,
          name: `SSR ${n}`,
          type: n === 3 ? "emergency" : "normal",
          gpio_pin: n - 1,
        })),
        units: [1, 2, 3].map((n) => ({
          id: `unit_${n}`,
          name: `Depto ${100 + n}`,
          ssr_id: `ssr_${n}`,
        })),
      },
    },
  });
  if (!station.ok) throw new Error(`demo station is invalid: ${JSON.stringify(station.errors)}`);
  // Installed when its history begins, so that its uptime covers that history.
  const since = { ...deps, now: () => deps.now() - HISTORY_DAYS * 86_400_000 };
  const made = await createStation(since, admin, station.data);
  for (let i = 0; i < DEMO_METERS; i++) {
    const id = simIdentity(i + 1, DEMO_SIM_NAMING);
    const body = validateDeviceBody(sensorBodySchema("create"), {
      name: `Medidor Depto ${101 + i}`,
      serial_number: id.serial,
      type: "sensor",
      config: {
        mqtt: { username: id.username, password: id.password, topic_prefix: "" },
        sensor: {
          unit_id: `unit_${i + 1}`,
          tenant_id: i === 0 && tenant ? tenant.id : null,
          ip_address: `192.168.10.${21 + i}`,
        },
      },
    });
    if (!body.ok) throw new Error(`demo sensor is invalid: ${JSON.stringify(body.errors)}`);
    await createSensor(since, admin, made.id, body.data);
  }
  if (customer) await assignCustomer(deps, customer.id, [made.id]);
  await backfill(deps, serials, HISTORY_DAYS);
  await pastOutages(deps, serials[1]);
  return serials;
}

/**
 * Six past outages of one meter over the last days (the owner's unit page lists its
 * disconnections), written as the status tracker writes them, without notices.
 */
async function pastOutages(deps: Deps, serial: string): Promise<void> {
  const meter = await findBySerial(deps.kv, serial);
  if (!meter) return;
  const hour = 3_600_000;
  const start = deps.now() - 6 * 24 * hour;
  await markOnline(deps.kv, meter.id, start);
  for (let i = 0; i < 6; i++) {
    const down = start + (i * 20 + 3) * hour;
    await markOffline(deps.kv, meter.id, down, i % 2 ? "silence" : "will", []);
    await markOnline(deps.kv, meter.id, down + (15 + i * 25) * 60_000);
  }
}

/** Samples of the history written at once (a day of 5-minute readings). */
const BACKFILL_CHUNK = 288;

/** Writes `days` of 5-minute history for each meter, through the Shelly parsing path. */
async function backfill(deps: Deps, serials: string[], days: number): Promise<void> {
  const end = deps.now();
  const start = end - days * 86_400_000;
  const options = { ...DEFAULT_INTERPRET, maxAgeMs: (days + 1) * 86_400_000 };
  for (const serial of serials) {
    const meter = createMeter(serial, {
      t: start,
      utcOffsetMinutes: clockOf(deps).offsetMinutes(),
    });
    const state = newMeterState();
    let samples: Sample[] = [];
    for (let t = start; t < end; t += 5 * 60_000) {
      stepMeter(meter, t);
      const read = interpretMessage(state, "events/rpc", notifyFullStatus(meter), t, options);
      if (read.type === "reading") samples.push({ serial, ts: read.ts, values: read.values });
      // Written a day at a time: two months of one meter held at once cost the portal
      // some 200 MB of heap at start, which the process did not give back for minutes.
      if (samples.length === BACKFILL_CHUNK) {
        deps.telemetry.write(samples);
        samples = [];
        await deps.telemetry.flush();
      }
    }
    deps.telemetry.write(samples);
    await deps.telemetry.flush();
  }
}

/**
 * Live simulated meters publishing every `intervalMs`; their counters carry on from the
 * latest stored readings (the history, or the last run), so energy never jumps.
 */
export async function startDemoMeters(
  deps: Deps,
  url: string,
  serials: string[],
  intervalMs = 10_000,
): Promise<{ stop(): Promise<void> }> {
  const meters: SimMeter[] = [];
  for (let i = 0; i < serials.length; i++) {
    const id = simIdentity(i + 1, DEMO_SIM_NAMING);
    // The password kept for the meter wins, so that demo data seeded with other passwords
    // (or changed in the portal since) keeps publishing.
    const stored = await findBySerial(deps.kv, id.serial);
    const meter = await connectSimMeter({
      url,
      serial: id.serial,
      username: stored?.config.mqtt.username ?? id.username,
      password: (stored && await deviceMqttPassword(deps, stored)) ?? id.password,
      failFast: false,
    });
    const last = (await deps.telemetry.latest(id.serial))?.values;
    if (last) {
      const wh = (kwh: number | undefined, fallback: number) =>
        kwh === undefined ? fallback : kwh * 1000;
      meter.model.energyWh = (["a", "b", "c"] as const).map((p, j) =>
        wh(last[`phase_${p}_energy_kwh`], meter.model.energyWh[j])
      ) as [number, number, number];
      meter.model.returnedWh = (["a", "b", "c"] as const).map((p, j) =>
        wh(last[`phase_${p}_returned_kwh`], meter.model.returnedWh[j])
      ) as [number, number, number];
    }
    meters.push(meter);
  }
  // The station's own controller says it is online too (with its Last Will), so that the
  // station's effective status is online while its meters are.
  const prefix = stationTopicPrefix(DEMO_STATION_SERIAL);
  const station = mqtt.connect(url, {
    clientId: `demo-station-${DEMO_STATION_SERIAL.toLowerCase()}`,
    username: DEMO_STATION_MQTT.username,
    password: DEMO_STATION_MQTT.password,
    reconnectPeriod: 1_000,
    will: { topic: `${prefix}/online`, payload: "false", qos: 1, retain: true },
  });
  station.on(
    "connect",
    () => station.publish(`${prefix}/online`, "true", { qos: 1, retain: true }),
  );
  station.on("error", () => {});
  const timer = setInterval(() => {
    for (const m of meters) m.tick().catch(() => {});
    if (station.connected) station.publish(`${prefix}/online`, "true", { qos: 1, retain: true });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(meters.map((m) => m.stop()));
      await station.endAsync();
    },
  };
}
