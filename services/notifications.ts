/**
 * Notification use cases: reading a user's notifications with their texts in the reader's
 * current language, and resolving one by hand.
 *
 * Bill notices (`bill_created`, `payment_overdue`, `payment_received`) are stored as a type plus
 * parameters (unit and station names, period, amount in cents, currency, due date) and worded
 * here, at read time, with `billing.notifications.{type}_title|_message`: the period as the reader
 * says it ("noviembre 2026", "Nov–Dic 2026"), the amount with 2 decimals and its currency.
 * Other notices may be stored with the locale keys of their texts (`params.title_key`,
 * `params.message_key`, worded with the other params: a summary of sensors offline). Older
 * notifications kept fixed texts and are shown as they are.
 */
import type { Deps } from "./deps.ts";
import { canResolveByHand, type Notification } from "../core/types.ts";
import { periodLabel } from "../core/periods.ts";
import { centsToUnits } from "../core/money.ts";
import { formatter } from "../core/format.ts";
import type { Language } from "../core/roles.ts";
import type { Translate } from "./platform/i18n.ts";
import {
  countActive,
  getNotification,
  listNotifications,
  notificationsRevision,
  resolveNotification,
} from "../db/notifications.ts";
import { invalid, notFound } from "./refusal.ts";

/** A notification with its texts in the reader's language. */
function renderNotification(note: Notification, t: Translate, lang: Language): Notification {
  const p = note.params;
  if (!p) return { ...note, params: note.params ?? null, link: note.link ?? null };
  if (typeof p.title_key === "string" && typeof p.message_key === "string") {
    return {
      ...note,
      title: t(p.title_key, p),
      message: t(p.message_key, p),
      link: note.link ?? null,
    };
  }
  const values: Record<string, string | number> = { ...p };
  if (typeof p.period === "string") values.period = periodLabel(t, p.period, true);
  if (typeof p.amount === "number") {
    values.amount = formatter(lang).money(p.amount, String(p.currency ?? ""));
  }
  if (typeof p.due === "string") values.due = formatter(lang).date(p.due);
  return {
    ...note,
    title: t(`billing.notifications.${note.type}_title`, values),
    message: t(`billing.notifications.${note.type}_message`, values),
    // Stored in cents; served, like every amount, in currency units.
    params: typeof p.amount === "number" ? { ...p, amount: centsToUnits(p.amount) } : p,
    link: note.link ?? null,
  };
}

/** A user's notifications, newest first, worded in `lang`. */
export async function notificationsOf(
  deps: Deps,
  userId: number,
  status: "active" | "resolved" | "all",
  limit: number,
  lang: Language,
): Promise<Notification[]> {
  const t = deps.i18n.t(lang);
  const list = await listNotifications(deps.kv, userId, status, limit);
  return list.map((n) => renderNotification(n, t, lang));
}

/** Counts kept per store: a user's count with the revision it was read at. */
const counts = new WeakMap<Deno.Kv, Map<number, { revision: bigint; count: number }>>();
/** Users whose count a process keeps (the oldest kept is dropped past it). */
const COUNTS_KEPT = 10_000;

/**
 * How many active notifications a user has: counted again only when the user's notifications'
 * revision moved (one read otherwise, in any process: the revision is in KV).
 */
export async function activeCount(deps: Deps, userId: number): Promise<number> {
  let kept = counts.get(deps.kv);
  if (!kept) counts.set(deps.kv, kept = new Map());
  const revision = await notificationsRevision(deps.kv, userId);
  const hit = kept.get(userId);
  if (hit && hit.revision === revision) return hit.count;
  // Read after the revision: a write in between is counted and the next read counts again.
  const count = await countActive(deps.kv, userId);
  kept.delete(userId);
  if (kept.size >= COUNTS_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(userId, { revision, count });
  return count;
}

/** The revision of a user's notifications (what the bell and a page's ETag depend on). */
export function notificationRevision(deps: Deps, userId: number): Promise<bigint> {
  return notificationsRevision(deps.kv, userId);
}

/**
 * Resolves a user's own notification by hand, worded in `lang`. Refuses an unknown one (not
 * found), a sensor_offline notice whose device is still offline and one already resolved.
 */
export async function resolveByHand(
  deps: Deps,
  userId: number,
  id: number,
  lang: Language = "es",
): Promise<Notification> {
  const note = await getNotification(deps.kv, userId, id);
  if (!note) throw notFound("errors.notification_not_found");
  if (note.type === "sensor_offline" && note.status === "active") {
    throw invalid({}, "notifications.still_offline");
  }
  if (!canResolveByHand(note)) throw invalid({}, "notifications.already_resolved");
  const done = await resolveNotification(deps.kv, userId, id);
  if (!done) throw notFound("errors.notification_not_found");
  return renderNotification(done, deps.i18n.t(lang), lang);
}
