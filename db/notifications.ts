/**
 * Notifications in Deno KV.
 *
 * Key layout:
 * - `["notifications", userId, id]` → {@link Notification}
 * - `["notifications_open", userId, type, subjectId]` → id of the active notification about
 *   a subject (so a sensor going offline twice does not notify twice)
 */
import type { Notification, NotificationType } from "../core/types.ts";
import { nextId } from "./kv.ts";

const noteKey = (userId: number, id: number) => ["notifications", userId, id];
const openKey = (userId: number, type: string, subject: string) => [
  "notifications_open",
  userId,
  type,
  subject,
];

/** What creating a notification needs. */
export interface NewNotification {
  user_id: number;
  type: NotificationType;
  priority: Notification["priority"];
  /** Fixed texts; empty when `params` are given and the texts are rendered at read time. */
  title: string;
  message: string;
  subject_id?: string | null;
  params?: Record<string, string | number> | null;
  link?: string | null;
}

/** The new notification of an input, active, under its id. */
function activeNotification(id: number, input: NewNotification, now: number): Notification {
  return {
    id,
    user_id: input.user_id,
    type: input.type,
    priority: input.priority,
    title: input.title,
    message: input.message,
    created_at: now,
    status: "active",
    subject_id: input.subject_id ?? null,
    params: input.params ?? null,
    link: input.link ?? null,
  };
}

/**
 * Creates a notification. When it has a subject and an active notification of the same
 * type and subject exists, that one is returned instead of a duplicate.
 */
export async function createNotification(
  kv: Deno.Kv,
  input: NewNotification,
  now: number,
): Promise<Notification> {
  const subject = input.subject_id ?? null;
  if (subject !== null) {
    const open = await kv.get<number>(openKey(input.user_id, input.type, subject));
    if (open.value !== null) {
      const existing = (await kv.get<Notification>(noteKey(input.user_id, open.value))).value;
      if (existing && existing.status === "active") return existing;
    }
  }
  const id = await nextId(kv, "notifications");
  const note = activeNotification(id, input, now);
  const op = kv.atomic().set(noteKey(input.user_id, id), note);
  if (subject !== null) op.set(openKey(input.user_id, input.type, subject), id);
  await op.commit();
  return note;
}

/** A user's notifications, newest first, filtered by status, at most `limit`. */
export async function listNotifications(
  kv: Deno.Kv,
  userId: number,
  status: "active" | "resolved" | "all",
  limit: number,
): Promise<Notification[]> {
  const out: Notification[] = [];
  for await (
    const e of kv.list<Notification>({ prefix: ["notifications", userId] }, { reverse: true })
  ) {
    if (status === "all" || e.value.status === status) out.push(e.value);
    if (out.length >= limit) break;
  }
  return out;
}

/** Number of a user's active notifications. */
export async function countActive(kv: Deno.Kv, userId: number): Promise<number> {
  let n = 0;
  for await (const e of kv.list<Notification>({ prefix: ["notifications", userId] })) {
    if (e.value.status === "active") n++;
  }
  return n;
}

/** Reads one of a user's notifications. */
export async function getNotification(
  kv: Deno.Kv,
  userId: number,
  id: number,
): Promise<Notification | null> {
  return (await kv.get<Notification>(noteKey(userId, id))).value;
}

/** Marks a notification resolved; returns it, or null when the user has no such notification. */
export async function resolveNotification(
  kv: Deno.Kv,
  userId: number,
  id: number,
): Promise<Notification | null> {
  const cur = await kv.get<Notification>(noteKey(userId, id));
  if (!cur.value) return null;
  const next: Notification = { ...cur.value, status: "resolved" };
  const op = kv.atomic().check(cur).set(noteKey(userId, id), next);
  if (cur.value.subject_id !== null) {
    op.delete(openKey(userId, cur.value.type, cur.value.subject_id));
  }
  await op.commit();
  return next;
}

/** Resolves the active notification of a type about a subject (e.g. a sensor back online). */
export async function resolveBySubject(
  kv: Deno.Kv,
  userId: number,
  type: NotificationType,
  subject: string,
): Promise<Notification | null> {
  const open = await kv.get<number>(openKey(userId, type, subject));
  return open.value === null ? null : resolveNotification(kv, userId, open.value);
}

/** Deletes every notification of a user (when the account is deleted). */
export async function deleteNotificationsOf(kv: Deno.Kv, userId: number): Promise<void> {
  for await (const e of kv.list({ prefix: ["notifications", userId] })) await kv.delete(e.key);
  for await (const e of kv.list({ prefix: ["notifications_open", userId] })) await kv.delete(e.key);
}

/**
 * Creates many notifications at once (a billing run's `bill_created`), with the rule of
 * {@link createNotification} for subjects: an input whose subject has an active notification
 * of its type gets that one. Ids are reserved in one sequence write and the notifications are
 * written in a few atomic commits; answers them in the order of `inputs`.
 */
export async function createNotifications(
  kv: Deno.Kv,
  inputs: readonly NewNotification[],
  now: number,
): Promise<Notification[]> {
  const out: (Notification | null)[] = inputs.map(() => null);
  const openKeys = inputs.map((n) =>
    n.subject_id == null ? null : openKey(n.user_id, n.type, n.subject_id)
  );
  const asked = openKeys.flatMap((k, i) => (k ? [i] : []));
  for (let c = 0; c < asked.length; c += 10) {
    const chunk = asked.slice(c, c + 10);
    const open = await kv.getMany<number[]>(chunk.map((i) => openKeys[i]!));
    const found = chunk.flatMap((i, j) => open[j].value === null ? [] : [[i, open[j].value!]]);
    if (found.length === 0) continue;
    const notes = await kv.getMany<Notification[]>(
      found.map(([i, id]) => noteKey(inputs[i].user_id, id)),
    );
    found.forEach(([i], j) => {
      if (notes[j].value?.status === "active") out[i] = notes[j].value;
    });
  }
  const fresh = inputs.flatMap((_, i) => (out[i] === null ? [i] : []));
  if (fresh.length > 0) {
    const seq = ["seq", "notifications"];
    let first = 0;
    for (;;) {
      const cur = await kv.get<number>(seq);
      first = (cur.value ?? 0) + 1;
      if ((await kv.atomic().check(cur).set(seq, first + fresh.length - 1).commit()).ok) break;
    }
    for (let c = 0; c < fresh.length; c += 200) {
      const op = kv.atomic();
      for (const i of fresh.slice(c, c + 200)) {
        const input = inputs[i];
        const note = activeNotification(first++, input, now);
        op.set(noteKey(input.user_id, note.id), note);
        if (openKeys[i]) op.set(openKeys[i]!, note.id);
        out[i] = note;
      }
      await op.commit();
    }
  }
  return out as Notification[];
}
