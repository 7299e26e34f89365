import assert from "node:assert/strict";
import { ruleInputSchema, ruleOf } from "./alert_rules.ts";
import { acknowledgeAlert, dueReminders, openAlert, resolveAlert } from "./alerts.ts";

const H = 3_600_000;
const rule = ruleOf(
  ruleInputSchema.parse({
    template: "high_power",
    repeat_hours: 4,
    escalate_hours: 12,
    escalate_to: [7],
  }),
  "r1",
  1,
  0,
);
const place = { subject: "M1", device_id: 2, station_id: 1, zone_id: 3, unit_id: "unit_1" };

Deno.test("an open alert repeats every N hours and escalates once after M; each event keyed once", () => {
  let { alert, events } = openAlert("a1", rule, place, 0, 6123.4567, "total_power");
  assert.deepEqual(events.map((e) => [e.key, e.to]), [["alert:a1:opened", "admins"]]);
  assert.equal(alert.value, 6123.457);
  assert.equal(dueReminders(alert, rule, 4 * H - 1), null);
  const keys: string[] = [];
  for (const h of [4, 5, 8, 12, 13]) {
    const due = dueReminders(alert, rule, h * H);
    if (!due) continue;
    alert = due.alert;
    keys.push(...due.events.map((e) => `${e.key}>${e.to}`));
  }
  assert.deepEqual(keys, [
    "alert:a1:repeat_1>admins",
    "alert:a1:repeat_2>admins",
    "alert:a1:repeat_3>admins",
    "alert:a1:escalated>7",
  ]);
  // Acknowledged: no more reminders; acknowledged twice: refused.
  const ack = acknowledgeAlert(alert, 9, "  on my way  ", 14 * H)!;
  assert.deepEqual([ack.alert.state, ack.alert.note, ack.alert.acknowledged_by], [
    "acknowledged",
    "on my way",
    9,
  ]);
  assert.equal(acknowledgeAlert(ack.alert, 9, "", 15 * H), null);
  assert.equal(dueReminders(ack.alert, rule, 40 * H), null);
  // Resolved (the condition cleared): the admins and, as it was escalated, the second list.
  const res = resolveAlert(ack.alert, rule, null, 20 * H)!;
  assert.deepEqual(res.events.map((e) => e.key), [
    "alert:a1:resolved",
    "alert:a1:resolved_escalated",
  ]);
  assert.equal(resolveAlert(res.alert, rule, 1, 21 * H), null);
});
