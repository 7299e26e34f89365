/** A billing world for the billing tests: a tiered zone, a station, metered units with tenants. */
import assert from "node:assert/strict";
import {
  account,
  call,
  postSensor,
  postStation,
  type TestApp,
  testApp,
  testsWith,
} from "./_helpers.ts";
import { defaultZone, type Zone } from "../core/zone.ts";
import { parsePeriod } from "../core/periods.ts";
import { localDate } from "../core/local_time.ts";
import type { StoredUser } from "../db/users.ts";
import { createZone } from "../db/zones.ts";
import { listUnitBills, type StoredUnitBill } from "../db/bills.ts";
import type { TelemetryStore } from "../db/telemetry/mod.ts";
import { issueToken } from "../services/platform/tokens.ts";
import { periodBounds, recalculateBill, recordPayment } from "../services/billing/mod.ts";

const H = 3_600_000;

/** The world of these tests: a tiered zone, one station, metered units with tenants. */
export interface BillingWorld {
  t: TestApp;
  /** The app's clock: it moves (assign `now`) only in a world built with `now`. */
  clock: { now: number };
  zoneId: number;
  stationId: number;
  /** The units' meters (SIM-A, SIM-B, …), one per tenant. */
  sensors: number[];
  tenants: number[];
  admin: string;
  tenantTokens: string[];
  adminUser: StoredUser;
  tenantUsers: StoredUser[];
  /** The station's owner (a customer), in a world built with `owner`. */
  owner: { id: number; token: string } | null;
}

/** Options of {@link billingWorld}. */
export interface BillingWorldOptions {
  /**
   * Start of a movable clock (`w.clock.now`), and the tokens then stay valid from 30 days before
   * it for 400 days (the clock may move by weeks). Without it: the real clock, one-hour tokens.
   */
  now?: number;
  /** Fields of zone "Tiered" to override (a billing type, other prices). */
  zone?: Partial<Zone>;
  /** A customer owning the station (with these account fields, if given). */
  owner?: boolean | Partial<StoredUser>;
  /** The admin's account fields. */
  admin?: Partial<StoredUser>;
  /**
   * One tenant per unit (unit_1 metered by SIM-A, unit_2 by SIM-B, …): the tenants' account
   * fields. Default: tenant A in Spanish, tenant B in English.
   */
  tenants?: Partial<StoredUser>[];
  /** The store to build on (a KV file another app instance also opens): in memory unless given. */
  kv?: Deno.Kv;
  /** The telemetry store to build on (a file other processes also open): in memory unless given. */
  telemetry?: TelemetryStore;
}

/** A unit of {@link addStation}: its id and name, its meter's serial and its tenant. */
export interface StationUnit {
  id: string;
  name: string;
  serial: string;
  tenant: number;
  /** The meter's name; `Medidor <serial>` unless given. */
  meter?: string;
}

/**
 * Creates a station through the API (one SSR; `serial_number` and MQTT user derived from
 * `serial`) with a metered unit per entry of `units`; answers its id and its meters' ids.
 */
export async function addStation(
  t: TestApp,
  token: string,
  station: { name: string; serial: string; zoneId: number },
  units: StationUnit[],
): Promise<{ id: number; sensors: number[] }> {
  const id = await postStation(t, token, {
    name: station.name,
    serial: station.serial,
    stationId: station.name.toLowerCase(),
    zoneId: station.zoneId,
    mqtt: { username: station.serial.toLowerCase(), password: "station-pass" },
    units: units.map((u) => ({ id: u.id, name: u.name })),
  });
  const sensors: number[] = [];
  for (const u of units) {
    sensors.push(
      await postSensor(t, token, id, {
        name: u.meter,
        serial: u.serial,
        unit: u.id,
        tenant: u.tenant,
        mqtt: { username: u.serial.toLowerCase(), password: "pw-sim-x-0123456789" },
      }),
    );
  }
  return { id, sensors };
}

/** Assigns `stationIds` to the customer `customerId` through the API. */
export async function assignOwner(
  t: TestApp,
  token: string,
  customerId: number,
  stationIds: number[],
): Promise<void> {
  const res = await call(t, "POST", "/api/devices/assign-customer", {
    token,
    json: { customer_id: customerId, station_ids: stationIds },
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

/** The tiered zone's fields: 1.00/kWh up to 150, 2.00 up to 280, 3.00 above; and so on. */
export const TIERED: Partial<Zone> = {
  enable_levels: true,
  price_low: 1,
  price_low_threshold: 150,
  price_middle: 2,
  price_middle_threshold: 280,
  price_high: 3,
  price_high_threshold: 0,
  base_tariff: 40,
  tax_percentage: 16,
  customer_commission: 10,
  customer_fee: 25,
  customer_tax: 16,
};

/** A zone named "Tiered" with the {@link TIERED} fields, then those of `parts` in order. */
export function tieredZone(...parts: Record<string, unknown>[]): Zone & Record<string, unknown> {
  return Object.assign({ ...defaultZone("Tiered"), ...TIERED }, ...parts);
}

/**
 * Zone: 1.00/kWh up to 150, 2.00 up to 280, 3.00 above; base 40, tax 16 %; commission 10 %,
 * fee 25 per unit, customer tax 16 % (and `options.zone`). Station "Norte" with unit_1 (SIM-A)
 * and unit_2 (SIM-B), a unit per tenant of `options.tenants`; see {@link BillingWorldOptions}.
 */
export async function billingWorld(options: BillingWorldOptions = {}): Promise<BillingWorld> {
  const start = options.now;
  const clock = { now: start ?? Date.now() };
  const store = {
    ...(options.kv ? { kv: options.kv } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  };
  const t = start === undefined
    ? await testApp(store)
    : await testApp({ ...store, now: () => clock.now });
  const admin = await account(t, "admin", options.admin ?? {});
  const owner = options.owner
    ? await account(t, "customer", options.owner === true ? {} : options.owner)
    : null;
  const tenants = [];
  for (const extra of options.tenants ?? [{ language: "es" }, {}]) {
    tenants.push(await account(t, "user", extra));
  }
  /** An account's token: the helpers' one-hour token, or one outliving the moving clock. */
  const token = (a: { user: StoredUser; token: string }) =>
    start === undefined
      ? Promise.resolve(a.token)
      : issueToken(t.deps.secret, a.user, start - 30 * 24 * H, 400 * 24 * 3600);
  const adminToken = await token(admin);
  const zone = await createZone(t.deps.kv, tieredZone(options.zone ?? {}), start ?? Date.now());
  const station = await addStation(
    t,
    adminToken,
    { name: "Norte", serial: "ST-B1", zoneId: zone.id },
    tenants.map((tenant, i) => ({
      id: `unit_${i + 1}`,
      name: `Depto ${i + 1}`,
      serial: `SIM-${"ABCDEFGH"[i]}`,
      meter: `Medidor ${i + 1}`,
      tenant: tenant.user.id,
    })),
  );
  if (owner) await assignOwner(t, adminToken, owner.user.id, [station.id]);
  return {
    t,
    clock,
    zoneId: zone.id,
    stationId: station.id,
    sensors: station.sensors,
    tenants: tenants.map((x) => x.user.id),
    admin: adminToken,
    tenantTokens: await Promise.all(tenants.map(token)),
    adminUser: admin.user,
    tenantUsers: tenants.map((x) => x.user),
    owner: owner && { id: owner.user.id, token: await token(owner) },
  };
}

/** What a billing run reports of one kind of bill, by outcome. */
type RunCounts = Record<"created" | "updated" | "skipped" | "failed", number>;

/** The unit-bill counts a billing run reports: zero but for `given`. */
export function unitCounts(given: Partial<RunCounts & { estimated: number }>) {
  return { created: 0, updated: 0, skipped: 0, estimated: 0, failed: 0, ...given };
}

/** The station-bill counts a billing run reports: zero but for `given`. */
export function stationCounts(given: Partial<RunCounts>): RunCounts {
  return { created: 0, updated: 0, skipped: 0, failed: 0, ...given };
}

/**
 * Writes counter readings whose delta over `period` is `kwh`: one just before it, one at its
 * start, one half-way (10 days in at most) and the last an hour before its end, or an hour
 * before the app's clock in the open period.
 */
export async function meter(t: TestApp, serial: string, period: string, kwh: number) {
  const { from, to } = periodBounds(parsePeriod(period), t.deps.config.utcOffsetMinutes);
  const last = Math.min(to, t.deps.now()) - H;
  t.deps.telemetry.write([
    { serial, ts: from - H, values: { total_energy_kwh: 1000 } },
    { serial, ts: from + H, values: { total_energy_kwh: 1000 } },
    {
      serial,
      ts: Math.min(from + 240 * H, (from + last) / 2),
      values: { total_energy_kwh: 1000 + kwh / 2 },
    },
    { serial, ts: last, values: { total_energy_kwh: 1000 + kwh } },
  ]);
  await t.deps.telemetry.flush();
}

/** Records a cash payment of a finalized bill as the world's admin would (the bill becomes paid). */
export async function payBill(w: BillingWorld, id: number): Promise<void> {
  // The business day (an admin's "today"), not UTC's: in the evening they differ.
  const date = localDate(w.t.deps.now(), w.t.deps.config.utcOffsetMinutes);
  await recordPayment(w.t.deps, id, { method: "cash", payment_date: date }, w.adminUser);
}

/** Finalizes one bill of a past period on its own, as an admin's recalculation does. */
export async function finalizeOne(w: BillingWorld, id: number, kwh: number): Promise<void> {
  await recalculateBill(w.t.deps, id, "monthly", {
    reason: "meter checked on site",
    method: "manual_input",
    kwh,
  }, { id: 1, email: "admin@test.example" });
}

/**
 * Writes the readings of `measured` (meter serial → kWh in `period`, see {@link meter}), then
 * posts a billing run of `period` for the world's zone as its admin; asserts it is answered 200.
 */
export async function processPeriod(
  w: BillingWorld,
  period: string,
  measured: Record<string, number> = {},
): Promise<void> {
  for (const [serial, kwh] of Object.entries(measured)) await meter(w.t, serial, period, kwh);
  const res = await call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin,
    json: { period, zone_id: w.zoneId },
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

/** The stored bill of `unit` for `period` (a month or two); asserts there is one. */
export async function unitBillOf(
  w: BillingWorld,
  period: string,
  unit = "unit_1",
): Promise<StoredUnitBill> {
  const b = (await listUnitBills(w.t.deps.kv)).find((x) =>
    (x.billing_month ?? x.billing_period) === period && x.unit_id === unit
  );
  assert.ok(b, `${period} ${unit}`);
  return b;
}

/** `Deno.test` in a fresh {@link billingWorld} of `options`, closed however the test ends. */
export function billingTest(
  name: string,
  options: BillingWorldOptions,
  fn: (w: BillingWorld) => Promise<void>,
): void {
  testsWith(() => billingWorld(options), (w) => w.t.close())(name, fn);
}
