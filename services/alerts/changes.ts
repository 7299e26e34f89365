/**
 * Opening and clearing alerts in KV (issue 30): each is one commit with its messages
 * (db/alerts.ts); a rule has one unresolved alert per meter, whichever process tried first.
 */
import type { Deps } from "../deps.ts";
import type { AlertRule, MeterPlace } from "../../core/alert_rules.ts";
import { openAlert, resolveAlert } from "../../core/alerts.ts";
import {
  createAlert,
  getAlertEntry,
  newAlertId,
  unresolvedAlertId,
  updateAlert,
} from "../../db/alerts.ts";

/** Opens the rule's alert about the meter (nothing when one is unresolved); true when opened. */
export async function openFor(
  deps: Deps,
  rule: AlertRule,
  m: MeterPlace,
  at: number,
  value: number | null,
  key: string | null,
): Promise<boolean> {
  const change = openAlert(
    newAlertId(at),
    rule,
    {
      subject: m.serial.toUpperCase(),
      device_id: m.device_id,
      station_id: m.station_id,
      zone_id: m.zone_id,
      unit_id: m.unit_id,
    },
    at,
    value,
    key,
  );
  return await createAlert(deps.kv, change);
}

/** Resolves the rule's unresolved alert about the meter, its condition gone; true when it did. */
export async function clearFor(
  deps: Deps,
  rule: AlertRule,
  serial: string,
  at: number,
): Promise<boolean> {
  for (let i = 0; i < 5; i++) {
    const id = await unresolvedAlertId(deps.kv, rule.id, serial.toUpperCase());
    if (!id) return false;
    const entry = await getAlertEntry(deps.kv, id);
    if (!entry) return false;
    const change = resolveAlert(entry.value, rule, null, at);
    if (!change) return false;
    if (await updateAlert(deps.kv, entry, change)) return true;
  }
  return false;
}
