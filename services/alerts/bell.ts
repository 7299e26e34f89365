/**
 * Open alerts in the notification bell (issue 30), beside the notifications and without being
 * one (the Notification entity keeps its four types): the reader's open alerts nobody
 * acknowledged yet (an admin's: all; an owner's: their stations'; a tenant has none here), their
 * number and where to read them. The bell is drawn on every page and its count polled, so the
 * alerts are not scanned per request: their count per station is kept per process with the
 * alerts' revision (moved by every alert write, by any process) and worked out again only once
 * it moved; a request reads that one key, and an owner's station index.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import { activeAlerts, alertsRevision } from "../../db/alerts.ts";
import { stationIdsOfCustomer } from "../../db/devices.ts";

/** Open alerts counted per station, at one revision. */
interface OpenCounts {
  revision: bigint;
  byStation: Map<number, { count: number; latest: number }>;
  total: number;
}

const kept = new WeakMap<Deno.Kv, OpenCounts>();
const counting = new WeakMap<Deno.Kv, Promise<OpenCounts>>();

async function count(kv: Deno.Kv, revision: bigint): Promise<OpenCounts> {
  const byStation = new Map<number, { count: number; latest: number }>();
  let total = 0;
  for (const { value: a } of await activeAlerts(kv)) {
    if (a.state !== "open") continue;
    total++;
    const s = byStation.get(a.station_id);
    if (s) {
      s.count++;
      s.latest = Math.max(s.latest, a.opened_at);
    } else byStation.set(a.station_id, { count: 1, latest: a.opened_at });
  }
  const counts = { revision, byStation, total };
  kept.set(kv, counts);
  return counts;
}

/** The counts at the alerts' current revision (one count at a time per store). */
async function openCounts(kv: Deno.Kv): Promise<OpenCounts> {
  const revision = await alertsRevision(kv);
  const prev = kept.get(kv);
  if (prev?.revision === revision) return prev;
  let running = counting.get(kv);
  if (!running) {
    running = count(kv, revision).finally(() => counting.delete(kv));
    counting.set(kv, running);
  }
  return await running;
}

/** The bell's alerts section: how many, the page to read them on, and each one's (`{id}`, `{station}`). */
export interface BellAlerts {
  count: number;
  href: string;
  item: string;
}

/**
 * The open, unacknowledged alerts `viewer` is told of in the bell; null for a reader who is
 * told of none (a tenant: theirs are insights on their own pages).
 */
export async function bellAlertsOf(deps: Deps, viewer: User): Promise<BellAlerts | null> {
  if (viewer.role === "admin") {
    return {
      count: (await openCounts(deps.kv)).total,
      href: "/admin/alerts?state=active",
      item: "/admin/alerts?id={id}",
    };
  }
  if (viewer.role !== "customer") return null;
  const [counts, stations] = await Promise.all([
    openCounts(deps.kv),
    stationIdsOfCustomer(deps.kv, viewer.id),
  ]);
  let n = 0;
  let newest: { id: number; at: number } | null = null;
  for (const id of stations) {
    const s = counts.byStation.get(id);
    if (!s) continue;
    n += s.count;
    if (!newest || s.latest > newest.at) newest = { id, at: s.latest };
  }
  // An owner reads their alerts on the installation's page: the one of the newest.
  const station = newest?.id ?? stations[0];
  return {
    count: n,
    href: station === undefined ? "/customer" : `/customer/installations/${station}`,
    item: "/customer/installations/{station}",
  };
}
