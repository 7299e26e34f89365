/**
 * How a device is served to a caller: in full, or as basic station data (who may see what is
 * `access.ts`), with its status, sibling sensors, names, zone, certificate and payment status.
 */
import { type StationPaymentStatus, stationPaymentStatus } from "../../core/bill_status.ts";
import { listUnitBills, type StoredUnitBill } from "../../db/bills.ts";
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import type { DeviceStatus, DeviceView, StationUnit } from "../../core/devices.ts";
import { sensorStationId } from "../../core/devices.ts";
import { effectiveStationStatus } from "../../core/device_rules.ts";
import { getDevices, sensorIdsOf, sensorIdsOfTenant } from "../../db/devices.ts";
import { sensorsByStation } from "../../db/device_lists.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { readStatuses, SCAN_ABOVE, type StatusNow } from "../../db/device_status.ts";
import { fleetStatuses } from "./fleet_online.ts";
import { fleetLastSeen } from "./fleet_last_seen.ts";
import { fullNames } from "../../db/users.ts";
import { getZone } from "../../db/zones.ts";
import { getCertificates, type StoredCertificate } from "../../db/certificates.ts";
import { daysRemaining } from "../../core/certificates.ts";

/** Above this many stations, their sensors are read with one scan of the parent index. */
const MANY = 40;

/** Everything needed to serve a set of devices: statuses, sibling sensors, names. */
interface ViewContext {
  admin: boolean;
  /** Stored devices by id: the ones served, their stations and their stations' sensors. */
  devices: Map<number, StoredDevice>;
  /** Sensors of each station. */
  sensorsOf: Map<number, StoredDevice[]>;
  status: Map<number, StatusNow>;
  names: Map<number, string>;
  /** Names of the stations' pricing zones. */
  zones: Map<number, string>;
  /** Admins: the stored client certificates of the sensors served; else empty. */
  certificates: Map<number, StoredCertificate>;
  /** When the context was loaded (epoch ms). */
  now: number;
  /** Tenants: their own sensors' ids (the units a basic station view shows); else null. */
  ownSensors: Set<number> | null;
  /** Each station's payment status, from its finalized unit bills (core/bill.ts). */
  payments: Map<number, StationPaymentStatus>;
}

/**
 * The own status and last_seen of `devices`: for the admin's view of the whole fleet, from the
 * statuses and times kept per store (at most a few seconds old, see `fleet_online.ts` and
 * `fleet_last_seen.ts`) rather than a scan of every device's per request; else read.
 */
async function statusesOf(
  deps: Deps,
  viewer: User,
  devices: ReadonlyMap<number, StoredDevice>,
): Promise<Map<number, StatusNow>> {
  if (viewer.role !== "admin" || devices.size <= SCAN_ABOVE) {
    return await readStatuses(deps.kv, [...devices.keys()]);
  }
  const [statuses, seen] = await Promise.all([fleetStatuses(deps), fleetLastSeen(deps.kv)]);
  const out = new Map<number, StatusNow>();
  for (const id of devices.keys()) {
    out.set(id, {
      status: statuses.status.get(id) ?? "unknown",
      last_seen: seen.get(id) ?? null,
    });
  }
  return out;
}

/**
 * Loads what serving `devices` needs. `fleet` is every stored device when the caller already
 * read them all (the admin's scope): stations and their sensors are then taken from it
 * instead of being read again.
 */
async function viewContext(
  deps: Deps,
  viewer: User,
  devices: readonly StoredDevice[],
  fleet: ReadonlyMap<number, StoredDevice> | null = null,
): Promise<ViewContext> {
  const all = new Map<number, StoredDevice>(devices.map((d) => [d.id, d]));
  const stationIds = new Set<number>();
  for (const d of devices) {
    if (d.type === "station") stationIds.add(d.id);
    else if (d.parent_id !== null) stationIds.add(d.parent_id);
  }
  const sensorsOf = fleet
    ? sensorsFromFleet(fleet, stationIds, all)
    : await readSensorsOf(deps, stationIds, all);
  const status = await statusesOf(deps, viewer, all);
  const userIds = new Set<number>();
  for (const d of all.values()) {
    if (d.customer_id !== null) userIds.add(d.customer_id);
    if (d.tenant_id !== null) userIds.add(d.tenant_id);
  }
  const names = await fullNames(deps.kv, userIds);
  const zones = new Map<number, string>();
  const zoneIds = new Set(
    [...all.values()].map((d) => d.type === "station" ? d.zone_id : null).filter((z) => z !== null),
  );
  for (const id of zoneIds) {
    const z = await getZone(deps.kv, id);
    if (z) zones.set(id, z.name);
  }
  const sensorIds = [...all.values()].filter((d) => d.type === "sensor").map((d) => d.id);
  const certificates = viewer.role === "admin"
    ? await getCertificates(deps.kv, sensorIds)
    : new Map<number, StoredCertificate>();
  return {
    admin: viewer.role === "admin",
    devices: all,
    sensorsOf,
    status,
    names,
    zones,
    certificates,
    now: deps.now(),
    ownSensors: viewer.role === "user"
      ? new Set(await sensorIdsOfTenant(deps.kv, viewer.id))
      : null,
    // Only stations show a payment status: a sensor list reads no bills.
    payments: await paymentStatuses(
      deps,
      new Set(devices.filter((d) => d.type === "station").map((d) => d.id)),
    ),
  };
}

/** The sensors of `stationIds` from every stored device; adds them and the stations to `all`. */
function sensorsFromFleet(
  fleet: ReadonlyMap<number, StoredDevice>,
  stationIds: ReadonlySet<number>,
  all: Map<number, StoredDevice>,
): Map<number, StoredDevice[]> {
  const out = new Map<number, StoredDevice[]>([...stationIds].map((id) => [id, []]));
  for (const d of fleet.values()) {
    if (stationIds.has(d.id)) all.set(d.id, d);
    const list = d.type === "sensor" && d.parent_id !== null ? out.get(d.parent_id) : undefined;
    if (!list) continue;
    list.push(d);
    all.set(d.id, d);
  }
  return out;
}

/** Reads the stations of `stationIds` missing from `all` and their sensors, into `all`. */
async function readSensorsOf(
  deps: Deps,
  stationIds: ReadonlySet<number>,
  all: Map<number, StoredDevice>,
): Promise<Map<number, StoredDevice[]>> {
  const missing = [...stationIds].filter((id) => !all.has(id));
  for (const s of await getDevices(deps.kv, missing)) all.set(s.id, s);
  // Many stations: one scan of the parent index instead of a read per station.
  const parents = stationIds.size > MANY ? await sensorsByStation(deps.kv) : null;
  const idsOf = new Map<number, number[]>();
  for (const id of stationIds) idsOf.set(id, parents?.get(id) ?? await sensorIdsOf(deps.kv, id));
  const need = [...idsOf.values()].flat().filter((i) => !all.has(i));
  for (const s of await getDevices(deps.kv, need)) all.set(s.id, s);
  const out = new Map<number, StoredDevice[]>();
  for (const [id, ids] of idsOf) {
    out.set(id, ids.map((i) => all.get(i)).filter((s) => s !== undefined));
  }
  return out;
}

/**
 * Each station's payment status from its unit bills: a read per station, or for many
 * stations one scan of every unit bill.
 */
async function paymentStatuses(
  deps: Deps,
  stationIds: ReadonlySet<number>,
): Promise<Map<number, StationPaymentStatus>> {
  if (stationIds.size <= MANY) {
    const out = new Map<number, StationPaymentStatus>();
    for (const id of stationIds) {
      out.set(id, stationPaymentStatus(await listUnitBills(deps.kv, id)));
    }
    return out;
  }
  const billsOf = new Map<number, StoredUnitBill[]>();
  for (const b of await listUnitBills(deps.kv)) {
    if (!stationIds.has(b.station_id)) continue;
    const list = billsOf.get(b.station_id);
    if (list) list.push(b);
    else billsOf.set(b.station_id, [b]);
  }
  return new Map([...stationIds].map((id) => [id, stationPaymentStatus(billsOf.get(id) ?? [])]));
}

/** A station's pricing zone as the views name it, or null. */
const zoneOf = (ctx: ViewContext, d: StoredDevice) => {
  const name = d.type === "station" && d.zone_id !== null ? ctx.zones.get(d.zone_id) : undefined;
  return name === undefined ? null : { name };
};

/** A sensor's certificate expiry as spec 000 section 3 names it, or null before one exists. */
const certificateOf = (ctx: ViewContext, id: number) => {
  const cert = ctx.certificates.get(id);
  return cert
    ? {
      expires: new Date(cert.not_after).toISOString(),
      days_until_expiry: daysRemaining(cert.not_after, ctx.now),
    }
    : null;
};

const named = (ctx: ViewContext, id: number | null) => {
  const name = id === null ? undefined : ctx.names.get(id);
  return name === undefined ? null : { full_name: name };
};

/** A device's own status and last_seen. */
function ownStatus(ctx: ViewContext, id: number): StatusNow {
  return ctx.status.get(id) ?? { status: "unknown", last_seen: null };
}

/** A station's effective status (spec 000 section 4). */
function stationStatus(ctx: ViewContext, id: number): DeviceStatus {
  const sensors = (ctx.sensorsOf.get(id) ?? []).map((s) => ownStatus(ctx, s.id).status);
  return effectiveStationStatus(ownStatus(ctx, id).status, sensors);
}

/** The units of a station with the tenant of the sensor bound to each. */
function unitsOf(ctx: ViewContext, station: StoredDevice): StationUnit[] {
  const sensors = ctx.sensorsOf.get(station.id) ?? [];
  return (station.config.station?.units ?? []).map((u) => {
    const sensor = sensors.find((s) => s.config.sensor?.unit_id === u.id);
    return {
      id: u.id,
      name: u.name,
      ssr_id: u.ssr_id,
      station_id: station.id,
      tenant_id: sensor?.tenant_id ?? null,
    };
  });
}

/** Serves a device in full (as the admin, a customer or the owning tenant sees it). */
function fullView(ctx: ViewContext, d: StoredDevice): DeviceView {
  const { mqtt_password_hash: _, mqtt_password_sealed: _sealed, config, ...rest } = d;
  const own = ownStatus(ctx, d.id);
  const base = {
    ...rest,
    status: own.status,
    last_seen: own.last_seen,
    zone: zoneOf(ctx, d),
    payment_status: ctx.payments.get(d.id) ?? "other",
  };
  const mqtt = ctx.admin ? { mqtt: { ...config.mqtt } } : {};
  if (d.type === "station") {
    return {
      ...base,
      status: stationStatus(ctx, d.id),
      tenant_id: null,
      customer: named(ctx, d.customer_id),
      tenant: null,
      config: {
        ...mqtt,
        station: { ssrs: config.station?.ssrs ?? [], units: unitsOf(ctx, d) },
      },
    };
  }
  const parent = d.parent_id === null ? undefined : ctx.devices.get(d.parent_id);
  // A tenant is not shown the station owner.
  const customerId = ctx.ownSensors ? null : parent?.customer_id ?? null;
  return {
    ...base,
    station_id: parent ? sensorStationId(parent.station_id, d.serial_number) : d.station_id,
    customer_id: customerId,
    customer: named(ctx, customerId),
    tenant: named(ctx, d.tenant_id),
    ...(ctx.admin ? { certificate: certificateOf(ctx, d.id) } : {}),
    config: {
      ...mqtt,
      sensor: {
        unit_id: config.sensor?.unit_id ?? null,
        tenant_id: d.tenant_id,
        ip_address: config.sensor?.ip_address ?? "",
        ...(config.sensor?.master ? { master: true } : {}),
      },
    },
  };
}

/** Serves a station as a tenant sees it: basic data and only the tenant's own units. */
function basicStationView(ctx: ViewContext, d: StoredDevice): DeviceView {
  const own = ctx.ownSensors ?? new Set<number>();
  const units = unitsOf(ctx, d).filter((u) =>
    (ctx.sensorsOf.get(d.id) ?? []).some((s) => own.has(s.id) && s.config.sensor?.unit_id === u.id)
  );
  const status = ownStatus(ctx, d.id);
  return {
    id: d.id,
    type: "station",
    name: d.name,
    serial_number: d.serial_number,
    station_id: d.station_id,
    parent_id: null,
    zone_id: d.zone_id,
    zone: zoneOf(ctx, d),
    status: stationStatus(ctx, d.id),
    last_seen: status.last_seen,
    location: d.location,
    customer_id: null,
    customer: null,
    tenant_id: null,
    tenant: null,
    payment_status: ctx.payments.get(d.id) ?? "other",
    config: { station: { ssrs: [], units } },
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/**
 * Serves devices `viewer` may see: in full, except the ids in `basic` (a tenant's
 * stations), served as basic station data. `fleet`: see {@link viewContext}.
 */
export async function serve(
  deps: Deps,
  viewer: User,
  devices: readonly StoredDevice[],
  basic: ReadonlySet<number> = new Set(),
  fleet: ReadonlyMap<number, StoredDevice> | null = null,
): Promise<DeviceView[]> {
  const ctx = await viewContext(deps, viewer, devices, fleet);
  return devices.map((d) => basic.has(d.id) ? basicStationView(ctx, d) : fullView(ctx, d));
}
