/**
 * An alert's life (issue 30): open → acknowledged (who, a note) → resolved (the condition
 * cleared, or by hand); an open alert nobody acknowledged repeats its message every
 * `repeat_hours` and goes to the rule's second list after `escalate_hours`. Pure: each change
 * answers the alert after it and the outbox events it causes (one per transition, keyed by it,
 * so a repeated change sends nothing twice); db/alerts.ts writes both in one commit.
 */
import type { AlertRule, AlertTemplate } from "./alert_rules.ts";
import type { OutboxEvent } from "./messages.ts";

/** Where an alert is in its life. */
export type AlertState = "open" | "acknowledged" | "resolved";

/** An alert of a rule about one subject (a meter's serial). */
export interface Alert {
  id: string;
  rule_id: string;
  template: AlertTemplate;
  /** The meter's serial. */
  subject: string;
  device_id: number;
  station_id: number;
  zone_id: number | null;
  unit_id: string | null;
  state: AlertState;
  opened_at: number;
  /** The reading that tripped it: its value and measurement key (or what a timer rule saw). */
  value: number | null;
  key: string | null;
  acknowledged_by: number | null;
  acknowledged_at: number | null;
  note: string;
  resolved_at: number | null;
  /** Who resolved it by hand; null when its condition cleared. */
  resolved_by: number | null;
  /** Messages sent to the first list so far (the opening one, then each repeat). */
  sent: number;
  escalated: boolean;
}

/** What opens an alert. */
export type AlertSubject = Pick<
  Alert,
  "subject" | "device_id" | "station_id" | "zone_id" | "unit_id"
>;

/** The longest note kept with an acknowledgement. */
export const NOTE_MAX = 500;

/** The outbox event of an alert's transition `what`, to `to`. */
export function alertEvent(a: Alert, what: string, to: OutboxEvent["to"]): OutboxEvent {
  return {
    key: `alert:${a.id}:${what}`,
    kind: "alert",
    to,
    params: { alert_id: a.id, transition: what.replace(/_\d+$/, "") },
  };
}

/** A change of an alert: the alert after it and the events to send. */
export interface AlertChange {
  alert: Alert;
  events: OutboxEvent[];
}

/** A new open alert of `rule` about `s`, tripped at `at` by `value` (`key`). */
export function openAlert(
  id: string,
  rule: AlertRule,
  s: AlertSubject,
  at: number,
  value: number | null,
  key: string | null,
): AlertChange {
  const alert: Alert = {
    id,
    rule_id: rule.id,
    template: rule.template,
    ...s,
    state: "open",
    opened_at: at,
    value: value === null || value === undefined ? null : Math.round(value * 1000) / 1000,
    key: key ?? null,
    acknowledged_by: null,
    acknowledged_at: null,
    note: "",
    resolved_at: null,
    resolved_by: null,
    sent: 1,
    escalated: false,
  };
  return { alert, events: [alertEvent(alert, "opened", "admins")] };
}

/** Acknowledged by `by` with `note`; null when it is not open. */
export function acknowledgeAlert(
  a: Alert,
  by: number,
  note: string,
  now: number,
): AlertChange | null {
  if (a.state !== "open") return null;
  return {
    alert: {
      ...a,
      state: "acknowledged",
      acknowledged_by: by,
      acknowledged_at: now,
      note: note.trim().slice(0, NOTE_MAX),
    },
    events: [],
  };
}

/** Resolved at `now`, by hand (`by`) or because its condition cleared (null); null when it is. */
export function resolveAlert(
  a: Alert,
  rule: AlertRule | null,
  by: number | null,
  now: number,
): AlertChange | null {
  if (a.state === "resolved") return null;
  const alert: Alert = { ...a, state: "resolved", resolved_at: now, resolved_by: by };
  const events = [alertEvent(alert, "resolved", "admins")];
  if (a.escalated && rule && rule.escalate_to.length > 0) {
    events.push(alertEvent(alert, "resolved_escalated", rule.escalate_to));
  }
  return { alert, events };
}

/**
 * The reminders due at `now` for an open alert nobody acknowledged: the next repeat to the
 * admins (every `repeat_hours` since it opened) and the escalation to the second list (once,
 * after `escalate_hours`); null when nothing is due.
 */
export function dueReminders(a: Alert, rule: AlertRule, now: number): AlertChange | null {
  if (a.state !== "open") return null;
  const events: OutboxEvent[] = [];
  let next = a;
  const h = 3_600_000;
  if (rule.repeat_hours > 0) {
    const due = Math.floor((now - a.opened_at) / (rule.repeat_hours * h)) + 1;
    if (due > a.sent) {
      next = { ...next, sent: due };
      events.push(alertEvent(next, `repeat_${due - 1}`, "admins"));
    }
  }
  if (
    !a.escalated && rule.escalate_hours > 0 && rule.escalate_to.length > 0 &&
    now - a.opened_at >= rule.escalate_hours * h
  ) {
    next = { ...next, escalated: true };
    events.push(alertEvent(next, "escalated", rule.escalate_to));
  }
  return events.length ? { alert: next, events } : null;
}
