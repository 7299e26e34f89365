/**
 * What people do with alerts (issue 30): the admin creates and deletes rules, lists alerts
 * (open first, filtered, paged), acknowledges and resolves them; an owner reads their stations'
 * alerts; a tenant reads the consumption alerts of their own unit.
 */
import type { Deps } from "../deps.ts";
import type { User } from "../../core/types.ts";
import {
  type AlertRule,
  CONSUMPTION_TEMPLATES,
  type RuleInput,
  ruleOf,
} from "../../core/alert_rules.ts";
import { acknowledgeAlert, type Alert, resolveAlert } from "../../core/alerts.ts";
import {
  deleteAlertRule,
  getAlertRule,
  listAlertRules,
  putAlertRule,
} from "../../db/alert_rules.ts";
import { activeAlerts, getAlertEntry, resolvedAlerts, updateAlert } from "../../db/alerts.ts";
import { scopeOf } from "../devices/access.ts";
import { conflict, notFound } from "../refusal.ts";

/** Creates a rule from a validated body. */
export async function createRule(deps: Deps, input: RuleInput, by: number): Promise<AlertRule> {
  const rule = ruleOf(input, crypto.randomUUID(), by, deps.now());
  await putAlertRule(deps.kv, rule);
  return rule;
}

/** Every rule. */
export const rulesOf = (deps: Deps) => listAlertRules(deps.kv);

/** Deletes a rule (its alerts stay as they are). */
export async function removeRule(deps: Deps, id: string): Promise<void> {
  if (!await deleteAlertRule(deps.kv, id)) throw notFound("alerts.validation.not_found");
}

/** A filter of the alert list. */
export interface AlertFilter {
  state?: "active" | "resolved";
  template?: string;
  station_id?: number;
  device_id?: number;
  page: number;
  size: number;
}

/** The alerts `viewer` may read, open first then resolved newest first, filtered and paged. */
export async function alertsFor(
  deps: Deps,
  viewer: User,
  f: AlertFilter,
): Promise<{ alerts: Alert[]; more: boolean }> {
  let mine: (a: Alert) => boolean = () => true;
  if (viewer.role !== "admin") {
    const scope = await scopeOf(deps, viewer);
    mine = viewer.role === "customer"
      ? (a) => scope.full.has(a.station_id)
      : (a) => scope.full.has(a.device_id) && CONSUMPTION_TEMPLATES.includes(a.template);
  }
  const keep = (a: Alert) =>
    mine(a) && (!f.template || a.template === f.template) &&
    (f.station_id === undefined || a.station_id === f.station_id) &&
    (f.device_id === undefined || a.device_id === f.device_id);
  const skip = (f.page - 1) * f.size;
  const out: Alert[] = [];
  if (f.state !== "resolved") {
    const active = (await activeAlerts(deps.kv)).map((e) => e.value).filter(keep)
      .sort((a, b) => Number(a.state !== "open") - Number(b.state !== "open"));
    out.push(...active);
  }
  if (f.state !== "active") {
    // Resolved ones are read only as far as the page needs (a bounded scan).
    let from = 0;
    while (out.length < skip + f.size + 1) {
      const batch = await resolvedAlerts(deps.kv, from, 200);
      out.push(...batch.filter(keep));
      if (batch.length < 200) break;
      from += 200;
    }
  }
  return { alerts: out.slice(skip, skip + f.size), more: out.length > skip + f.size };
}

/** Changes alert `id` by `how`; refused when absent or its state forbids it. */
async function change(
  deps: Deps,
  id: string,
  how: (a: Alert, rule: AlertRule | null) => ReturnType<typeof resolveAlert>,
): Promise<Alert> {
  for (let i = 0; i < 5; i++) {
    const entry = await getAlertEntry(deps.kv, id);
    if (!entry) throw notFound("alerts.validation.not_found");
    const c = how(entry.value, await getAlertRule(deps.kv, entry.value.rule_id));
    if (!c) throw conflict("alerts.validation.not_open");
    if (await updateAlert(deps.kv, entry, c)) return c.alert;
  }
  throw conflict("alerts.validation.not_open");
}

/** Acknowledged by `by` with a note. */
export const acknowledge = (deps: Deps, id: string, by: number, note: string) =>
  change(deps, id, (a) => acknowledgeAlert(a, by, note, deps.now()));

/** Resolved by hand by `by`. */
export const resolveByHand = (deps: Deps, id: string, by: number) =>
  change(deps, id, (a, rule) => resolveAlert(a, rule, by, deps.now()));
