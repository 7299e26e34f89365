/**
 * The rules judged on a timer (issue 30): silence (every pass), certificates, and each unit's
 * night and day consumption against its own baseline (once a day per rule, by one process);
 * then the reminders of open alerts nobody acknowledged (repeat, escalation). Each pass reads
 * the rules from KV; alerts change through `changes.ts`, one commit each with their messages.
 */
import type { Deps } from "../deps.ts";
import type { AlertRule, MeterPlace } from "../../core/alert_rules.ts";
import { covers } from "../../core/alert_rules.ts";
import type { Verdict } from "../../core/alerts_eval.ts";
import {
  certificateVerdict,
  DAY_BASELINE,
  NIGHT_BASELINE,
  nightBounds,
  silenceVerdict,
  usageVerdict,
} from "../../core/alerts_daily.ts";
import { dueReminders } from "../../core/alerts.ts";
import { listAlertRules } from "../../db/alert_rules.ts";
import { activeAlerts, updateAlert } from "../../db/alerts.ts";
import { allLastSeen } from "../../db/device_status.ts";
import { getCertificateEntry } from "../../db/certificates.ts";
import { firstTime } from "../../db/outbox.ts";
import { counterUsageOf } from "../../db/telemetry/mod.ts";
import { clockOf } from "../platform/clock.ts";
import { meterPlaces } from "./places.ts";
import { clearFor, openFor } from "./changes.ts";
import { runAsSingleton, type Singleton } from "../platform/singleton.ts";

const DAY = 86_400_000;

/** Opens or clears the rule's alert about `m` as `v` says (nothing for null). */
async function apply(deps: Deps, r: AlertRule, m: MeterPlace, v: Verdict | null, at: number) {
  if (v === null || v.state === "hold") return;
  if (v.state === "bad") await openFor(deps, r, m, at, v.value ?? null, null);
  else await clearFor(deps, r, m.serial, at);
}

/** A meter's energy (kWh) over [from, to), or null when it said nothing then. */
async function energy(deps: Deps, serial: string, from: number, to: number) {
  const u = await counterUsageOf(deps.telemetry, serial, "total_energy_kwh", from, to);
  return u.readings > 0 ? u.delta : null;
}

/** A local day `n` days before `day` (`YYYY-MM-DD`). */
const before = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);

/** Tonight's (or yesterday's) verdict for a consumption rule on one meter. */
async function usage(deps: Deps, r: AlertRule, m: MeterPlace): Promise<Verdict | null> {
  const clock = clockOf(deps);
  const today = clock.todayText();
  const offset = clock.offsetMinutes();
  const p = r.params;
  const nights = r.template === "night_usage";
  const n = nights ? NIGHT_BASELINE : DAY_BASELINE;
  const values: (number | null)[] = [];
  for (let i = 0; i <= n; i++) {
    const b = nights
      ? nightBounds(before(today, i), p.night_start, p.night_end, offset)
      : { from: clock.dayStart(before(today, i + 1)), to: clock.dayStart(before(today, i)) };
    if (b.to > deps.now()) {
      values.push(null);
      continue;
    }
    values.push(await energy(deps, m.serial, b.from, b.to));
  }
  return usageVerdict(values[0], values.slice(1), p.factor);
}

/** One pass over the timer rules and the reminders. */
export async function runAlertTimer(deps: Deps): Promise<void> {
  const now = deps.now();
  const rules = (await listAlertRules(deps.kv)).filter((r) => r.enabled);
  const timed = rules.filter((r) =>
    ["no_data", "cert_expiry", "night_usage", "daily_usage"].includes(r.template)
  );
  if (timed.length > 0) {
    const places = [...(await meterPlaces(deps)).values()];
    const lastSeen = timed.some((r) => r.template === "no_data")
      ? await allLastSeen(deps.kv)
      : new Map<number, number>();
    const today = clockOf(deps).todayText();
    for (const r of timed) {
      const daily = r.template === "night_usage" || r.template === "daily_usage";
      if (daily && !await firstTime(deps.kv, `alerts:${r.id}:${today}`)) continue;
      for (const m of places.filter((m) => covers(r.scope, m))) {
        if (r.template === "no_data") {
          await apply(deps, r, m, silenceVerdict(r, lastSeen.get(m.device_id) ?? null, now), now);
        } else if (r.template === "cert_expiry") {
          const cert = (await getCertificateEntry(deps.kv, m.device_id)).value;
          if (cert) await apply(deps, r, m, certificateVerdict(r, cert.not_after, now), now);
        } else {
          await apply(deps, r, m, await usage(deps, r, m), now);
        }
      }
    }
  }
  await sendReminders(deps, rules, now);
}

/** Repeats and escalations due now, each written once with its messages. */
export async function sendReminders(deps: Deps, rules: AlertRule[], now: number): Promise<void> {
  const byId = new Map(rules.map((r) => [r.id, r]));
  for (const entry of await activeAlerts(deps.kv)) {
    const rule = byId.get(entry.value.rule_id);
    const due = rule ? dueReminders(entry.value, rule, now) : null;
    if (due) await updateAlert(deps.kv, entry, due);
  }
}

/** The timer: a pass every `intervalMs` in the one process holding the `alert_timer` lease
 * (each opening and reminder is also written once by its own commit, `changes.ts`). */
export function startAlertTimer(deps: Deps, intervalMs = 60_000): Singleton {
  return runAsSingleton(deps, "alert_timer", intervalMs, () => runAlertTimer(deps));
}
