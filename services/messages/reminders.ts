/**
 * Reminders (issue 28): an unpaid bill due within three days gets one reminder. Run by the
 * overdue sweep, reading only the due-date index up to three days ahead; the event's key makes
 * a repeated sweep send nothing twice.
 */
import type { Deps } from "../deps.ts";
import { REMINDER_DAYS, reminderEvent } from "../../core/messages.ts";
import { billsDueBefore, getUnitBill } from "../../db/bills.ts";
import { deliveryId, getDelivery, putOutboxEvent } from "../../db/outbox.ts";

/** `YYYY-MM-DD` plus `days`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Queues the reminders due on `today`; answers how many were queued. */
export async function queueReminders(deps: Deps, today: string): Promise<number> {
  let queued = 0;
  const ids = await billsDueBefore(deps.kv, addDays(today, REMINDER_DAYS + 1), 10_000);
  for (const id of ids) {
    const bill = await getUnitBill(deps.kv, id);
    const event = bill ? reminderEvent(bill, today) : null;
    if (!event) continue;
    if (await getDelivery(deps.kv, deliveryId(event.key, bill!.tenant_id!, "email"))) continue;
    await putOutboxEvent(deps.kv, event);
    queued++;
  }
  return queued;
}
