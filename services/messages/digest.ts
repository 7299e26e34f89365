/**
 * The admins' daily digest of messages that could not be sent (issue 28; off unless an admin
 * turns it on in Settings): asked for every ten minutes by the one process holding the
 * `failed_digest` lease (worker.ts), queued once a day (`firstTime` of the day's key), counting
 * the messages that failed in the 24 hours before.
 */
import type { Deps } from "../deps.ts";
import { firstTime, putOutboxEvent, recentDeliveries } from "../../db/outbox.ts";
import { clockOf } from "../platform/clock.ts";

/** Queues today's digest when messages failed in the last day; answers how many failed. */
export async function queueFailedDigest(deps: Deps): Promise<number> {
  const day = clockOf(deps).todayText();
  const since = deps.now() - 86_400_000;
  const failed =
    (await recentDeliveries(deps.kv, 1000)).filter((d) =>
      d.state === "failed" && d.updated_at >= since && d.kind !== "failed_digest"
    ).length;
  if (failed === 0 || !await firstTime(deps.kv, `failed_digest:${day}`)) return 0;
  await putOutboxEvent(deps.kv, {
    key: `failed_digest:${day}`,
    kind: "failed_digest",
    to: "admins",
    params: { count: failed },
  });
  return failed;
}
