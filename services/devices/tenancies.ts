/**
 * Tenancies of units (issue 24): moving a tenant in or out at a date (the rules are
 * core/tenancy.ts's, stored by db/tenancies.ts), the handover reading, the final bill of a
 * move-out, and the history the API and pages show. The sensor's `tenant_id` stays the pointer
 * to whoever holds the unit now (what the device lists and access read); bills follow the
 * tenancies.
 *
 * A date in the past is allowed while the part of the period it changes is not finalized;
 * otherwise the refusal names the finalized bill. A future date is refused, except for the
 * move-in date an admin put on an access code.
 */
import { readingsWritten } from "../../db/readings_revision.ts";
import { auditStamp } from "../audit.ts";
import type { Deps } from "../deps.ts";
import {
  moveIn,
  moveOut,
  parseInstant,
  type Tenancy,
  type TenancyChange,
  type TenancyRefusal,
} from "../../core/tenancy.ts";
import { periodOfBill } from "../../core/bill.ts";
import { clockOf } from "../platform/clock.ts";
import { getDevice, updateDevice } from "../../db/devices.ts";
import { type StoredDevice } from "../../core/devices.ts";
import { getUser } from "../../db/users.ts";
import {
  legacyTenancy,
  readUnitTenancies,
  type StoredTenancy,
  tenanciesOfTenant,
  type UnitTenancies,
  writeUnitTenancies,
} from "../../db/tenancies.ts";
import { getZone } from "../../db/zones.ts";
import { finalizedBillAfter } from "../billing/tenancy_bills.ts";
import { billMoveOut } from "../billing/tenancy_bills.ts";
import { conflict, notFound, Refusal } from "../refusal.ts";
import { SENSOR_NOT_FOUND } from "./_changes.ts";
import { type MeteredSensor, readingSegments, type UnitMeters, unitMeters } from "./meter_usage.ts";
import type { User } from "../../core/types.ts";

/** Locale keys of the tenancy refusals. */
const TENANCY_ERRORS = {
  effectiveFrom: "devices.tenancy.errors.effective_from",
  future: "devices.tenancy.errors.future",
  reading: "devices.tenancy.errors.reading",
  noUnit: "devices.tenancy.errors.no_unit",
  finalized: "devices.tenancy.errors.finalized",
  later_start: "devices.tenancy.errors.later_start",
  before_current: "devices.tenancy.errors.before_current",
  overlap: "devices.tenancy.errors.overlap",
  no_tenant: "devices.tenancy.errors.no_tenant",
} as const;

/** When and with which meter reading a tenant moves in or out. */
export interface Handover {
  /** A date (`YYYY-MM-DD`) or an ISO instant; absent: now. */
  effective_from?: string | null;
  /** The meter's counter at the handover (kWh). */
  reading_kwh?: number | null;
}

/** A tenancy as the API answers it (`GET /api/devices/{sensorId}/tenancies`). */
interface TenancyJson {
  tenant_id: number;
  tenant_name: string;
  from: string | null;
  to: string | null;
  reading_from_kwh: number | null;
  reading_to_kwh: number | null;
}

const fieldRefusal = (field: string, key: string, params: Record<string, string> = {}) =>
  new Refusal("invalid", key, { [field]: key }, undefined, params);

/** The instant and reading of a handover; refuses a bad or future date, a bad reading. */
function checkHandover(
  deps: Deps,
  h: Handover,
  options: { allowFuture?: boolean } = {},
): { at: number; reading: number | null } {
  const now = deps.now();
  const text = h.effective_from?.trim() ?? "";
  const at = text === "" ? now : parseInstant(text, clockOf(deps).offsetMinutes());
  if (at === null) throw fieldRefusal("effective_from", TENANCY_ERRORS.effectiveFrom);
  if (at > now && !options.allowFuture) {
    throw fieldRefusal("effective_from", TENANCY_ERRORS.future);
  }
  const r = h.reading_kwh;
  if (r !== undefined && r !== null && !(Number.isFinite(r) && r >= 0 && r < 1e9)) {
    throw fieldRefusal("reading_kwh", TENANCY_ERRORS.reading);
  }
  return { at, reading: r ?? null };
}

/** What the tenancy rules read of a sensor (a stored device or its view). */
type TenancySensor = Pick<StoredDevice, "type" | "parent_id" | "tenant_id"> & {
  config: { sensor?: Pick<NonNullable<StoredDevice["config"]["sensor"]>, "unit_id" | "tenant_id"> };
};

/** The station and unit a sensor measures; not found without one. */
function unitOf(sensor: TenancySensor | null): { stationId: number; unitId: string } {
  const unitId = sensor?.config.sensor?.unit_id;
  if (!sensor || sensor.type !== "sensor") throw notFound(SENSOR_NOT_FOUND);
  if (sensor.parent_id === null || !unitId) {
    throw fieldRefusal("sensor_ids", TENANCY_ERRORS.noUnit);
  }
  return { stationId: sensor.parent_id, unitId };
}

/**
 * A unit's tenancies as read, with the sensor's pointer (or the `pointer` it had before an
 * edit) standing in for a unit without any.
 */
async function unitTenancies(
  deps: Deps,
  sensor: TenancySensor,
  pointer: number | null = sensor.tenant_id ?? sensor.config.sensor?.tenant_id ?? null,
): Promise<UnitTenancies> {
  const { stationId, unitId } = unitOf(sensor);
  const read = await readUnitTenancies(deps.kv, stationId, unitId);
  if (read.tenancies.length === 0 && pointer !== null) {
    return { ...read, tenancies: [legacyTenancy(stationId, unitId, pointer)] };
  }
  return read;
}

/** The refusal of a change the rules do not allow, worded with its dates. */
function refusalOf(deps: Deps, r: TenancyRefusal): Refusal {
  const date = clockOf(deps).localDate;
  const params: Record<string, string> = "since" in r
    ? { date: date(r.since) }
    : "until" in r
    ? { date: date(r.until) }
    : {};
  return fieldRefusal("effective_from", TENANCY_ERRORS[r.error], params);
}

/** One unit's planned change: what was read, and the tenancies after it. */
interface Planned {
  sensor: StoredDevice;
  read: UnitTenancies;
  next: StoredTenancy[];
  at: number;
  reading: number | null;
}

/** Checks a change against the rules and the unit's finalized bills; refuses before writing. */
async function plan(
  deps: Deps,
  sensor: StoredDevice,
  { at, reading, pointer }: { at: number; reading: number | null; pointer?: number | null },
  change: (list: StoredTenancy[], make: (t: Tenancy) => StoredTenancy) => TenancyChange<
    StoredTenancy
  >,
): Promise<Planned | null> {
  const read = await unitTenancies(deps, sensor, pointer);
  const now = deps.now();
  const make = (t: Tenancy): StoredTenancy => ({
    station_id: read.stationId,
    unit_id: read.unitId,
    created_at: now,
    ...t,
    updated_at: now,
  });
  const res = change(read.tenancies, make);
  if (!res.ok) throw refusalOf(deps, res);
  if (!res.changed) return null;
  const bill = await finalizedBillAfter(deps, read.stationId, read.unitId, at);
  if (bill) {
    throw new Refusal(
      "conflict",
      TENANCY_ERRORS.finalized,
      { effective_from: TENANCY_ERRORS.finalized },
      `bill ${bill.id} of ${periodOfBill(bill)} is finalized`,
      { id: bill.id, period: periodOfBill(bill) },
    );
  }
  return { sensor, read, next: res.next, at, reading };
}

/**
 * Writes planned changes: the tenancies (checked against what was read), the handover
 * reading as the meter's reading at the last instant of the outgoing tenancy, and the sensor's
 * pointer to whoever holds the unit now.
 */
async function apply(deps: Deps, planned: readonly Planned[]): Promise<number> {
  for (const p of planned) {
    const audit = auditStamp(deps, "tenancy.change", `device:${p.sensor.id}`);
    if (!await writeUnitTenancies(deps.kv, p.read, p.next, audit)) {
      throw conflict("devices.tenancy.errors.changed");
    }
    if (p.reading !== null) await recordHandoverReading(deps, p.sensor, p.at, p.reading);
    const now = deps.now();
    const holder = p.next.find((t) => t.from <= now && (t.to === null || now < t.to)) ??
      p.next.find((t) => t.to === null) ?? null;
    await setPointer(deps, p.sensor.id, holder?.tenant_id ?? null);
  }
  return planned.length;
}

/**
 * The meter's reading at a handover, kept as its reading at the last millisecond before the
 * boundary: the energy up to it counts in the outgoing tenancy, the rest in the next one
 * (the store counts each increase at its later reading).
 */
async function recordHandoverReading(
  deps: Deps,
  sensor: StoredDevice,
  at: number,
  kwh: number,
): Promise<void> {
  // The meter that measured the unit then (it may have been replaced since).
  const [segment] = await readingSegments(deps, sensor, at - 1, at);
  deps.telemetry.write([{
    serial: segment?.serial ?? sensor.serial_number,
    ts: at - 1,
    values: { total_energy_kwh: kwh },
  }]);
  await deps.telemetry.flush();
  // Pages kept by their meters' newest reading would miss a reading of the past.
  await readingsWritten(deps.kv);
}

/** Sets the sensor's (and its unit's) current tenant. */
async function setPointer(deps: Deps, sensorId: number, tenantId: number | null) {
  await updateDevice(deps.kv, sensorId, (cur) =>
    cur.type === "sensor"
      ? {
        ...cur,
        tenant_id: tenantId,
        config: { ...cur.config, sensor: { ...cur.config.sensor!, tenant_id: tenantId } },
        updated_at: deps.now(),
      }
      : { reason: "not_found" });
}

/**
 * `tenantId` moves into the units of `sensors` at the handover's date (now by default); the
 * tenant holding one moves out then. Every unit is checked before any is written.
 */
export async function moveTenantIn(
  deps: Deps,
  tenantId: number,
  sensors: readonly StoredDevice[],
  handover: Handover,
  options: { allowFuture?: boolean; pointer?: number | null } = {},
): Promise<number> {
  const { at, reading } = checkHandover(deps, handover, options);
  const planned: Planned[] = [];
  for (const sensor of sensors) {
    const p = await plan(deps, sensor, { at, reading, pointer: options.pointer }, (list, make) =>
      // Assigning the tenant who holds the unit again, without a date, changes nothing.
      !handover.effective_from && list.some((t) => t.to === null && t.tenant_id === tenantId)
        ? { ok: true, next: list, changed: false }
        : moveIn(list, make, tenantId, at, reading));
    if (p) planned.push(p);
  }
  await apply(deps, planned);
  return sensors.length;
}

/**
 * The tenant of the sensor's unit moves out at the handover's date; with `finalBill`, their
 * part of the period is billed and finalized at once.
 */
export async function moveTenantOut(
  deps: Deps,
  sensorId: number,
  handover: Handover & { final_bill?: boolean },
  author: string | null,
  options: { pointer?: number | null } = {},
): Promise<number> {
  const sensor = await getDevice(deps.kv, sensorId);
  if (sensor?.type !== "sensor") throw notFound(SENSOR_NOT_FOUND);
  const { at, reading } = checkHandover(deps, handover);
  const p = await plan(deps, sensor, { at, reading, pointer: options.pointer }, (list, make) =>
    // A unit nobody holds has nobody to move out: nothing changes (the spec's call is safe to
    // repeat).
    list.some((t) => t.to === null)
      ? moveOut(list, make, at, reading)
      : { ok: true, next: list, changed: false });
  if (!p) return 0;
  await apply(deps, [p]);
  if (handover.final_bill) {
    const ended = p.next.find((t) => t.to === at)!;
    const station = await getDevice(deps.kv, p.read.stationId);
    const zone = station?.zone_id ? await getZone(deps.kv, station.zone_id) : null;
    if (station && zone) {
      await billMoveOut(
        deps,
        station,
        p.read.unitId,
        zone.billing_type,
        { from: ended.from, to: at },
        author,
      );
    }
  }
  return 1;
}

/** The tenancies of a sensor's unit, oldest first, with the tenants' names. */
export async function listTenancies(deps: Deps, sensorId: number): Promise<TenancyJson[]> {
  const sensor = await getDevice(deps.kv, sensorId);
  if (sensor?.type !== "sensor") throw notFound(SENSOR_NOT_FOUND);
  if (sensor.parent_id === null || !sensor.config.sensor?.unit_id) return [];
  const read = await unitTenancies(deps, sensor);
  return await Promise.all(read.tenancies.map((t) => tenancyJson(deps, t)));
}

async function tenancyJson(deps: Deps, t: StoredTenancy): Promise<TenancyJson> {
  const tenant = await getUser(deps.kv, t.tenant_id);
  return {
    tenant_id: t.tenant_id,
    tenant_name: tenant?.full_name ?? "",
    from: t.from > 0 ? new Date(t.from).toISOString() : null,
    to: t.to === null ? null : new Date(t.to).toISOString(),
    reading_from_kwh: t.reading_from_kwh,
    reading_to_kwh: t.reading_to_kwh,
  };
}

/**
 * A tenant's tenancies of every unit (their lease dates), oldest first; a unit they hold from
 * before tenancies were kept counts from the beginning.
 */
export async function tenanciesOf(
  deps: Deps,
  tenantId: number,
  heldSensors: readonly StoredDevice[] = [],
): Promise<StoredTenancy[]> {
  const stored = await tenanciesOfTenant(deps.kv, tenantId);
  for (const s of heldSensors) {
    const unitId = s.config.sensor?.unit_id;
    if (s.parent_id === null || !unitId) continue;
    if (stored.some((t) => t.station_id === s.parent_id && t.unit_id === unitId)) continue;
    if ((await readUnitTenancies(deps.kv, s.parent_id, unitId)).tenancies.length > 0) continue;
    stored.push(legacyTenancy(s.parent_id, unitId, tenantId));
  }
  return stored.sort((a, b) => a.from - b.from);
}

/**
 * The windows `[from, to)` in which `tenantId` held the unit of `sensor` (a tenant sees the
 * unit's readings only within them); empty when never.
 */
export async function tenancyWindows(
  deps: Deps,
  tenantId: number,
  sensor: TenancySensor,
): Promise<{ from: number; to: number }[]> {
  const unitId = sensor.config.sensor?.unit_id;
  if (sensor.parent_id === null || !unitId) return [];
  const read = await unitTenancies(deps, sensor);
  return read.tenancies.filter((t) => t.tenant_id === tenantId).map((t) => ({
    from: t.from,
    to: t.to ?? Infinity,
  }));
}

/**
 * The reads of a sensor's unit as `viewer` may see them (issue 24): a tenant only within their
 * own tenancies of the unit (no reading from before they moved in or after they moved out),
 * anyone else all of them.
 */
export async function metersFor(
  deps: Deps,
  viewer: Pick<User, "id" | "role"> | null,
  sensor: TenancySensor & MeteredSensor,
): Promise<UnitMeters> {
  const windows = viewer?.role === "user"
    ? await tenancyWindows(deps, viewer.id, sensor)
    : undefined;
  return await unitMeters(deps, sensor, windows);
}
