/**
 * Alerts (issue 30) in Deno KV. Each change is one commit with the outbox events it causes
 * (db/outbox.ts), checked against what was read, so two processes never change one alert twice.
 *
 * Key layout:
 * - `["alerts", id]` → {@link Alert}; ids sort by opening time (its ms, zero-padded, then a
 *   random tail)
 * - `["alerts_open", rule_id, subject]` → id: the rule's unresolved alert about a subject; an
 *   alert opens only where this is absent, so a rule has one alert per subject at a time
 * - `["alerts_active", id]` → null: the unresolved alerts (open or acknowledged)
 * - `["alerts_revision"]` → `Deno.KvU64`: 1 added by every commit that writes an alert; what a
 *   reader keeps of the unresolved alerts (the bell's count, a tagged page) is read again once it moved
 */
import type { Alert, AlertChange } from "../core/alerts.ts";
import { stageOutboxEvent } from "./outbox.ts";

const alertKey = (id: string) => ["alerts", id];
const openKey = (rule: string, subject: string) => ["alerts_open", rule, subject];
const activeKey = (id: string) => ["alerts_active", id];
/** The alerts' revision (a page kept by it is checked with one read). */
export const ALERTS_REVISION: Deno.KvKey = ["alerts_revision"];

/** A new alert id for an alert opened at `at`. */
export function newAlertId(at: number): string {
  const tail = crypto.getRandomValues(new Uint8Array(4));
  return String(Math.max(0, Math.floor(at))).padStart(14, "0") +
    [...tail].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Writes a new open alert and its events; false when the rule already has one for the subject. */
export async function createAlert(kv: Deno.Kv, change: AlertChange): Promise<boolean> {
  const a = change.alert;
  const op = kv.atomic()
    .check({ key: openKey(a.rule_id, a.subject), versionstamp: null })
    .set(alertKey(a.id), a)
    .set(openKey(a.rule_id, a.subject), a.id)
    .set(activeKey(a.id), null)
    .sum(ALERTS_REVISION, 1n);
  for (const e of change.events) stageOutboxEvent(op, e);
  return (await op.commit()).ok;
}

/** Writes a change of `entry` and its events; false when the alert changed since it was read. */
export async function updateAlert(
  kv: Deno.Kv,
  entry: Deno.KvEntry<Alert>,
  change: AlertChange,
): Promise<boolean> {
  const a = change.alert;
  const op = kv.atomic().check(entry).set(alertKey(a.id), a).sum(ALERTS_REVISION, 1n);
  if (a.state === "resolved") op.delete(openKey(a.rule_id, a.subject)).delete(activeKey(a.id));
  for (const e of change.events) stageOutboxEvent(op, e);
  return (await op.commit()).ok;
}

/** The alerts' revision (0 before any alert was written). */
export async function alertsRevision(kv: Deno.Kv): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(ALERTS_REVISION)).value?.value ?? 0n;
}

/** An alert with its versionstamp, or null. */
export async function getAlertEntry(kv: Deno.Kv, id: string): Promise<Deno.KvEntry<Alert> | null> {
  const e = await kv.get<Alert>(alertKey(id));
  return e.value ? e as Deno.KvEntry<Alert> : null;
}

/** The id of the rule's unresolved alert about `subject`, or null. */
export async function unresolvedAlertId(
  kv: Deno.Kv,
  ruleId: string,
  subject: string,
): Promise<string | null> {
  return (await kv.get<string>(openKey(ruleId, subject))).value;
}

/** Every unresolved alert (open or acknowledged), newest first. */
export async function activeAlerts(kv: Deno.Kv): Promise<Deno.KvEntry<Alert>[]> {
  const ids: string[] = [];
  for await (const e of kv.list({ prefix: ["alerts_active"] }, { reverse: true })) {
    ids.push(e.key[1] as string);
  }
  const out: Deno.KvEntry<Alert>[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const got = await kv.getMany<Alert[]>(ids.slice(i, i + 10).map(alertKey));
    for (const g of got) if (g.value) out.push(g as Deno.KvEntry<Alert>);
  }
  return out;
}

/** Resolved alerts, newest first: `limit` of them after skipping `skip`. */
export async function resolvedAlerts(kv: Deno.Kv, skip: number, limit: number): Promise<Alert[]> {
  const out: Alert[] = [];
  let seen = 0;
  for await (const e of kv.list<Alert>({ prefix: ["alerts"] }, { reverse: true })) {
    if (e.value.state !== "resolved") continue;
    if (seen++ < skip) continue;
    out.push(e.value);
    if (out.length >= limit) break;
  }
  return out;
}
