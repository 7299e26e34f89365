/**
 * What the health check and the metrics read of the messages' outbox in KV.
 * Its keys are the outbox's (`db/outbox.ts`): one per delivery still to attempt (pending, or
 * claimed with a lease that ends at `at`).
 */
import { OUTBOX_DUE as DUE } from "./outbox.ts";

/** Deliveries still to attempt, counted up to `limit`; and how many were due before `now`. */
export async function outboxBacklog(
  kv: Deno.Kv,
  now: number,
  limit = 10_000,
): Promise<{ pending: number; overdue: number }> {
  let pending = 0;
  let overdue = 0;
  for await (const e of kv.list({ prefix: DUE }, { limit })) {
    pending++;
    if (typeof e.key[1] === "number" && e.key[1] < now) overdue++;
  }
  return { pending, overdue };
}
