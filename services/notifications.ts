/** Notification use cases. */
import type { Deps } from "./deps.ts";
import { canResolveByHand, type Notification } from "../core/types.ts";
import { getNotification, resolveNotification } from "../db/notifications.ts";

/** Resolves a user's own notification by hand; sensor_offline refuses ('Device still offline'). */
export async function resolveByHand(
  deps: Deps,
  userId: number,
  id: number,
): Promise<
  { ok: true; notification: Notification } | { ok: false; status: 400 | 404; key: string }
> {
  const note = await getNotification(deps.kv, userId, id);
  if (!note) return { ok: false, status: 404, key: "errors.notification_not_found" };
  if (note.type === "sensor_offline" && note.status === "active") {
    return { ok: false, status: 400, key: "notifications.still_offline" };
  }
  if (!canResolveByHand(note)) {
    return { ok: false, status: 400, key: "notifications.already_resolved" };
  }
  const done = await resolveNotification(deps.kv, userId, id);
  return done
    ? { ok: true, notification: done }
    : { ok: false, status: 404, key: "errors.notification_not_found" };
}
