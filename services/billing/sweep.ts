/**
 * The overdue sweep (issue 9): finalized bills still unpaid (pending, reference expired, a
 * failed reference) after their due date become overdue, the late fee of the legal terms
 * (50.00 MXN) is added to what the tenant owes (not to the bill's total) once, and the tenant
 * gets one `payment_overdue` notice. It reads only the due-date index (db/bills.ts), so its cost
 * follows the bills that fall due, not the whole store. Runs in the portal every hour (in the
 * one process holding the `overdue_sweep` lease: {@link startOverdueSweep}) and as
 * `deno task sweep`; it first writes the bill notices a killed run left pending. Idempotent on
 * its own: each bill moves with a commit checked against the bill, the late fee and the notice
 * come with that move only.
 */
import type { Deps } from "../deps.ts";
import { changePayment, isPastDue } from "../../core/payment.ts";
import { clockOf } from "../platform/clock.ts";
import { billsDueBefore, getUnitBillEntry, updateUnitBill } from "../../db/bills.ts";
import { notifyBill } from "./bills.ts";
import { writePendingNotices } from "./notices.ts";
import { queueReminders } from "../messages/reminders.ts";
import { runAsSingleton, type Singleton } from "../platform/singleton.ts";

/** What a sweep did. */
interface SweepResult {
  /** The local date the sweep ran on (`YYYY-MM-DD`). */
  date: string;
  overdue: number;
  /** Bills that got the late fee with this sweep. */
  late_fees: number;
}

/** How many bills one sweep step reads. */
const BATCH = 200;

/** Moves every unpaid bill past its due date to overdue (see the module's text). */
export async function sweepOverdue(deps: Deps): Promise<SweepResult> {
  // Notices of bills a killed run finalized without telling their tenants go out first.
  await writePendingNotices(deps).catch((e) =>
    deps.log.log("error", "pending bill notices not written", { error: String(e) })
  );
  const clock = clockOf(deps);
  const now = clock.now();
  const date = clock.todayText();
  const result: SweepResult = { date, overdue: 0, late_fees: 0 };
  // Unpaid bills due within three days get their reminder (once: issue 28).
  await queueReminders(deps, date).catch((e) =>
    deps.log.log("error", "bill reminders not queued", { error: String(e) })
  );
  const seen = new Set<number>();
  for (;;) {
    const ids = (await billsDueBefore(deps.kv, date, BATCH + seen.size)).filter((id) =>
      !seen.has(id)
    );
    if (ids.length === 0) return result;
    for (const id of ids) {
      seen.add(id);
      for (let attempt = 0; attempt < 3; attempt++) {
        const entry = await getUnitBillEntry(deps.kv, id);
        if (!entry || !isPastDue(entry.value, date)) break;
        const next = changePayment(entry.value, "overdue", {
          at: new Date(now).toISOString(),
          cause: "due_date_passed",
          by: null,
        });
        if (!await updateUnitBill(deps.kv, entry, next)) continue;
        result.overdue++;
        if (next.late_fee > entry.value.late_fee) result.late_fees++;
        await notifyBill(deps, "payment_overdue", next, { tenant: true });
        break;
      }
    }
  }
}

/** How often the portal sweeps. */
const SWEEP_EVERY_MS = 3_600_000;

/** The portal's hourly sweep: at start-up, then every hour, in one process at a time. */
export function startOverdueSweep(deps: Deps): Singleton {
  return runAsSingleton(deps, "overdue_sweep", SWEEP_EVERY_MS, async () => {
    await sweepOverdue(deps).then((r) => {
      if (r.overdue > 0) deps.log.log("info", "overdue sweep", { ...r });
    }).catch((e) => deps.log.log("error", "overdue sweep failed", { error: String(e) }));
  }, { atStart: true });
}
