/**
 * What each signed-in page that answers with an ETag shows depends on, read without loading
 * the page: the revisions of the families it shows (`db/revisions.ts`, one read), the live
 * parts no revision follows (each meter's last_seen and its newest reading in the store), and
 * the clock where the page's figures move with it. The route adds who asks, in which language,
 * the address and the build (`routes/_page_tag.ts`); the same inputs give the same page.
 *
 * Read before the page's data, so a page is never older than its tag: a change landing in
 * between makes the page newer than the tag, and the next request's tag differs. Readings are
 * followed by each meter's newest stored reading (live readings) and the readings revision
 * (readings of the past written by hand or at a handover); a reading a meter sends late, older
 * than its newest, shows at its next reading or the next quarter hour.
 */
import type { Deps } from "./deps.ts";
import type { User } from "../core/types.ts";
import type { StoredDevice } from "../core/devices.ts";
import { type Family, readRevisions } from "../db/revisions.ts";
import { notificationsRevisionKey } from "../db/notifications.ts";
import { readStatuses } from "../db/device_status.ts";
import { fleetGroups } from "./devices/fleet_devices.ts";
import { recentHealth } from "./platform/health.ts";

/** A part of a page's tag. */
export type TagPart = string | number | boolean | null | readonly TagPart[];

const MINUTE = 60_000;

/** Which quarter hour, five seconds or day of the business time zone it is. */
function timeSlot(deps: Deps, ms: number): number {
  return Math.floor((deps.now() + deps.config.utcOffsetMinutes * MINUTE) / ms);
}

/**
 * What no revision follows of the devices a page shows: each one's last_seen, and each meter's
 * newest stored reading (stations send none).
 */
async function liveOf(deps: Deps, devices: readonly StoredDevice[]): Promise<TagPart[]> {
  const [status, latest] = await Promise.all([
    readStatuses(deps.kv, devices.map((d) => d.id)),
    Promise.all(
      devices.map((d) => d.type === "sensor" ? deps.telemetry.latest(d.serial_number) : null),
    ),
  ]);
  return devices.map((d, i) => [
    d.id,
    status.get(d.id)?.last_seen ?? null,
    latest[i]?.ts ?? null,
  ]);
}

/**
 * The revisions every signed-in page depends on (the frame's bell: the user's notifications and,
 * for admins and owners, the open alerts of the stations they see) and the page's `families`.
 */
function revisions(deps: Deps, user: User, families: readonly Family[]): Promise<string[]> {
  const bell: Family[] = user.role === "user" ? [] : ["alerts", "devices"];
  const all = [...new Set([...families, ...bell])];
  return readRevisions(deps.kv, all, [notificationsRevisionKey(user.id)]);
}

/**
 * What a dashboard (the tenant's, the admin's) shows: units and their devices and statuses,
 * bills, zone prices, alerts and their rules, accounts, readings and tenancies.
 */
const DASHBOARD_FAMILIES: readonly Family[] = [
  "devices",
  "statuses",
  "bills",
  "zones",
  "alerts",
  "alert_rules",
  "users",
  "readings",
  "tenancies",
];

/**
 * The tenant's dashboard: units (devices, statuses, tenancies), readings, zone prices of the
 * estimate, bills, open alerts, and the quarter hour (today, this month, the 24-hour chart).
 */
export async function tenantDashboardTag(deps: Deps, user: User): Promise<TagPart[]> {
  const sensors = (await fleetGroups(deps.kv)).sensorsOfTenant.get(user.id) ?? [];
  const [revs, live] = await Promise.all([
    revisions(deps, user, DASHBOARD_FAMILIES),
    liveOf(deps, sensors),
  ]);
  return [revs, live, timeSlot(deps, 15 * MINUTE)];
}

/**
 * The tenant's billing page: units, zones, bills, their invoices (and the fiscal data that
 * decides what a paid bill offers), and the day (the periods offered).
 */
export async function tenantBillingTag(deps: Deps, user: User): Promise<TagPart[]> {
  const revs = await revisions(deps, user, [
    "devices",
    "bills",
    "zones",
    "users",
    "tenancies",
    "invoices",
  ]);
  return [revs, timeSlot(deps, 24 * 60 * MINUTE)];
}

/**
 * The owner's dashboard: stations and their meters (devices, statuses, names, zones, bills'
 * payment status), the meters' readings, and the quarter hour.
 */
export async function ownerDashboardTag(deps: Deps, user: User): Promise<TagPart[]> {
  const fleet = await fleetGroups(deps.kv);
  const stations = fleet.stationsOfCustomer.get(user.id) ?? [];
  const sensors = stations.flatMap((st) => fleet.sensorsOfStation.get(st.id) ?? []);
  const [revs, live] = await Promise.all([
    revisions(deps, user, [
      "devices",
      "statuses",
      "bills",
      "zones",
      "users",
      "readings",
      "tenancies",
    ]),
    liveOf(deps, [...stations, ...sensors]),
  ]);
  return [revs, live, timeSlot(deps, 15 * MINUTE)];
}

/**
 * The admin's users page: accounts (and the tenants' units), access codes, and the quarter
 * hour (codes' expiry).
 */
export async function adminUsersTag(deps: Deps, user: User): Promise<TagPart[]> {
  const revs = await revisions(deps, user, ["users", "access_codes", "devices", "tenancies"]);
  return [revs, timeSlot(deps, 15 * MINUTE)];
}

/**
 * The admin's dashboard shows the whole fleet live: its figures are at most a few seconds old
 * by design (the fleet's online counts and last_seen, 5 s), and the portal's health (the
 * failing checks of a report at most 5 s old, or newer when `/health` ran); the page is the
 * same for five seconds unless one of its families or the failing checks changed.
 */
export async function adminDashboardTag(deps: Deps, user: User): Promise<TagPart[]> {
  const health = await recentHealth(deps);
  const failing = Object.entries(health.checks).filter(([, r]) => !r.ok).map(([name]) => name);
  const revs = await revisions(deps, user, DASHBOARD_FAMILIES);
  return [revs, failing, timeSlot(deps, 5_000)];
}

/** The bell's count: the user's notifications. */
export function notificationCountTag(deps: Deps, user: User): Promise<TagPart[]> {
  return revisions(deps, user, []);
}

/**
 * The device counts of the live cells: devices and their statuses; the admin's online count is
 * the fleet's, at most a few seconds old by design (`fleet_online.ts`), so theirs for 5 s.
 */
export async function deviceStatsTag(deps: Deps, user: User): Promise<TagPart[]> {
  const revs = await revisions(deps, user, ["devices", "statuses"]);
  return user.role === "admin" ? [revs, timeSlot(deps, 5_000)] : revs;
}
