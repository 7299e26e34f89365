/**
 * Notifications in Deno KV.
 *
 * Key layout:
 * - `["notifications", userId, id]` → {@link Notification}
 * - `["notifications_open", userId, type, subjectId]` → id of the active notification about
 *   a subject (so a sensor going offline twice does not notify twice)
 * - `["notifications_members", userId, id, subjectId]` → true: the subjects of a notification
 *   about several of them (sensors that went offline together); it resolves when the last of
 *   them is released ({@link resolveBySubject})
 * - `["notifications_revision", userId]` → `Deno.KvU64`: 1 added by every commit that writes
 *   one of the user's notifications (created, resolved, deleted), so a count or a page kept in
 *   memory is checked with one read ({@link notificationsRevision})
 *
 * Ids need no shared counter: an id is the creation time in ms × 100 plus a sequence of this
 * process (never below an id it gave out before), so a user's notifications read newest first
 * in key order, as they did with the counter's smaller ids before them. Two processes that pick
 * the same id for the same user in the same millisecond meet on the write's check, and the
 * later one takes the next id.
 */
import type { Notification, NotificationType } from "../core/types.ts";

const noteKey = (userId: number, id: number) => ["notifications", userId, id];
const openKey = (userId: number, type: string, subject: string) => [
  "notifications_open",
  userId,
  type,
  subject,
];
/** The key of a user's notifications' revision (read with others for a page's ETag). */
export const notificationsRevisionKey = (userId: number): Deno.KvKey => [
  "notifications_revision",
  userId,
];
const revisionKey = notificationsRevisionKey;
const ONE = new Deno.KvU64(1n);

/** The revision of a user's notifications (0 before any write). */
export async function notificationsRevision(kv: Deno.Kv, userId: number): Promise<bigint> {
  return (await kv.get<Deno.KvU64>(revisionKey(userId))).value?.value ?? 0n;
}

const memberKey = (userId: number, id: number, subject: string) => [
  "notifications_members",
  userId,
  id,
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
  /**
   * A notification about several subjects (its `subject_id` is then null): each of them that
   * has no active notification of the type gets this one, which resolves when the last of
   * them is released.
   */
  subjects?: readonly string[] | null;
  params?: Record<string, string | number> | null;
  link?: string | null;
}

/** Ids per millisecond: 15 digits (the longest id a route takes) until the year 2286. */
const IDS_PER_MS = 100;
/** The last id this process gave out. */
let lastId = 0;

/** The first of `n` new ids for notifications created at `now`. */
function reserveIds(now: number, n: number): number {
  const first = Math.max(Math.floor(Math.max(0, now)) * IDS_PER_MS, lastId + 1);
  lastId = first + n - 1;
  return first;
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
    subject_id: input.subjects ? null : input.subject_id ?? null,
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
  return (await createNotifications(kv, [input], now))[0];
}

/** The subjects of an input. */
const subjectsOf = (n: NewNotification): readonly string[] =>
  n.subjects ?? (n.subject_id == null ? [] : [n.subject_id]);

/** Reads `keys` in order, 10 a read, up to 8 reads at a time. */
async function readMany<T>(
  kv: Deno.Kv,
  keys: readonly Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < keys.length; i += 10) chunks.push(keys.slice(i, i + 10));
  const out: Deno.KvEntryMaybe<T>[][] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      out[i] = await kv.getMany<T[]>(chunks[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, chunks.length) }, worker));
  return out.flat();
}

/** What writing one input takes: the subjects it takes over and the entries it checks. */
interface Plan {
  index: number;
  existing: Notification | null;
  subjects: string[];
  /** The open-key entry of a single subject, checked when written (no twin is written). */
  check: Deno.KvEntryMaybe<number> | null;
}

/**
 * Decides inputs `from`..`to - 1`: the active notification each gets, or the subjects a new one
 * takes (those without an active notification of its type). Their reads run together.
 */
async function plan(
  kv: Deno.Kv,
  inputs: readonly NewNotification[],
  from: number,
  to: number,
): Promise<Plan[]> {
  const asked: [index: number, subject: string][] = [];
  for (let i = from; i < to; i++) for (const s of subjectsOf(inputs[i])) asked.push([i, s]);
  const open = await readMany<number>(
    kv,
    asked.map(([i, s]) => openKey(inputs[i].user_id, inputs[i].type, s)),
  );
  const noteKeys = new Map<string, Deno.KvKey>();
  asked.forEach(([i], k) => {
    const id = open[k].value;
    if (id !== null) noteKeys.set(`${inputs[i].user_id}/${id}`, noteKey(inputs[i].user_id, id));
  });
  const notes = new Map<string, Notification>();
  const read = await readMany<Notification>(kv, [...noteKeys.values()]);
  for (const e of read) {
    if (e.value?.status === "active") notes.set(`${e.value.user_id}/${e.value.id}`, e.value);
  }
  const plans: Plan[] = [];
  let k = 0;
  for (let i = from; i < to; i++) {
    const input = inputs[i];
    const subjects = subjectsOf(input);
    const mine = open.slice(k, k + subjects.length);
    k += subjects.length;
    const active = (e: Deno.KvEntryMaybe<number>) =>
      e.value === null ? undefined : notes.get(`${input.user_id}/${e.value}`);
    const free = subjects.filter((_, j) => !active(mine[j]));
    const existing = subjects.length > 0 && free.length === 0 ? active(mine[0])! : null;
    plans.push({
      index: i,
      existing,
      subjects: existing ? [] : free,
      check: existing || input.subjects || subjects.length === 0 ? null : mine[0],
    });
  }
  return plans;
}

/** Mutations a commit may carry (Deno KV allows 1,000), and checks (100). */
const MAX_MUTATIONS = 800;
const MAX_CHECKS = 100;

/**
 * Creates many notifications at once (a billing run's `bill_created`, sensors that went
 * offline together), with the rule of {@link createNotification} for subjects: an input whose
 * subject has an active notification of its type gets that one. The notifications are written
 * in a few atomic commits; answers them in the order of `inputs`.
 */
export async function createNotifications(
  kv: Deno.Kv,
  inputs: readonly NewNotification[],
  now: number,
): Promise<Notification[]> {
  const out: (Notification | null)[] = inputs.map(() => null);
  let next = 0;
  let planned: Plan[] = [];
  while (next < inputs.length) {
    if (planned.length === 0) {
      planned = await plan(kv, inputs, next, Math.min(inputs.length, next + PLAN_AHEAD));
    }
    // One commit: inputs while their checks and mutations fit (a larger one goes alone).
    const batch: Plan[] = [];
    let checks = 0, mutations = 0;
    while (planned.length > 0) {
      const p = planned[0];
      const c = p.existing ? 0 : 1 + (p.check ? 1 : 0);
      // The note, its user's revision and its subjects' keys.
      const m = p.existing ? 0 : 2 + 2 * Math.min(p.subjects.length, FIRST_SUBJECTS);
      if (batch.length > 0 && (checks + c > MAX_CHECKS || mutations + m > MAX_MUTATIONS)) break;
      batch.push(planned.shift()!);
      checks += c;
      mutations += m;
    }
    if (await writePlans(kv, inputs, batch, now, out)) next = batch[batch.length - 1].index + 1;
    else planned = []; // something changed meanwhile: decide these again
  }
  return out as Notification[];
}

/** Inputs decided at once (their reads run together). */
const PLAN_AHEAD = 200;

/** The subjects of a new notification left for after its first commit. */
interface Rest {
  note: Notification;
  subjects: readonly string[];
}

/** Subjects of a notification about several written with it in its first commit. */
const FIRST_SUBJECTS = (MAX_MUTATIONS - 2) / 2;

/** Writes planned inputs into `out`; false when a check failed (nothing of it was written). */
async function writePlans(
  kv: Deno.Kv,
  inputs: readonly NewNotification[],
  plans: Plan[],
  now: number,
  out: (Notification | null)[],
): Promise<boolean> {
  const fresh = plans.filter((p) => !p.existing);
  let id = fresh.length ? reserveIds(now, fresh.length) : 0;
  const op = kv.atomic();
  const notes = new Map<number, Notification>();
  const rests: Rest[] = [];
  for (const p of fresh) {
    const input = inputs[p.index];
    const note = activeNotification(id++, input, now);
    const key = noteKey(input.user_id, note.id);
    op.check({ key, versionstamp: null }).set(key, note);
    if (p.check) op.check(p.check);
    stageSubjects(op, note, p.subjects.slice(0, FIRST_SUBJECTS), !!input.subjects);
    // A notification about very many subjects writes the rest of them after its first commit.
    if (p.subjects.length > FIRST_SUBJECTS) {
      rests.push({ note, subjects: p.subjects.slice(FIRST_SUBJECTS) });
    }
    notes.set(p.index, note);
  }
  for (const user of new Set(fresh.map((p) => inputs[p.index].user_id))) {
    op.sum(revisionKey(user), ONE.value);
  }
  if (fresh.length > 0 && !(await op.commit()).ok) return false;
  for (const p of plans) out[p.index] = p.existing ?? notes.get(p.index)!;
  for (const { note, subjects } of rests) {
    for (let i = 0; i < subjects.length; i += FIRST_SUBJECTS) {
      await stageSubjects(kv.atomic(), note, subjects.slice(i, i + FIRST_SUBJECTS), true).commit();
    }
  }
  return true;
}

/** Points the subjects' open keys at a notification (and, when several, lists them as members). */
function stageSubjects(
  op: Deno.AtomicOperation,
  note: Notification,
  subjects: readonly string[],
  members: boolean,
): Deno.AtomicOperation {
  for (const s of subjects) {
    op.set(openKey(note.user_id, note.type, s), note.id);
    if (members) op.set(memberKey(note.user_id, note.id, s), true);
  }
  return op;
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

/**
 * Marks a notification resolved, releasing its subjects; returns it, or null when the user
 * has no such notification.
 */
export async function resolveNotification(
  kv: Deno.Kv,
  userId: number,
  id: number,
): Promise<Notification | null> {
  const cur = await kv.get<Notification>(noteKey(userId, id));
  if (!cur.value) return null;
  const next: Notification = { ...cur.value, status: "resolved" };
  const op = kv.atomic().check(cur).set(noteKey(userId, id), next)
    .sum(revisionKey(userId), ONE.value);
  if (cur.value.subject_id !== null) {
    op.delete(openKey(userId, cur.value.type, cur.value.subject_id));
  }
  await op.commit();
  // The subjects of a notification about several that are still held by it.
  const rest: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: ["notifications_members", userId, id] })) {
    const subject = e.key[3] as string;
    const open = await kv.get<number>(openKey(userId, cur.value.type, subject));
    rest.push(e.key);
    if (open.value === id) rest.push(open.key);
  }
  for (let i = 0; i < rest.length; i += MAX_MUTATIONS) {
    const del = kv.atomic();
    for (const key of rest.slice(i, i + MAX_MUTATIONS)) del.delete(key);
    await del.commit();
  }
  return next;
}

/**
 * Releases a subject (e.g. a sensor back online): the active notification of a type about it
 * is resolved, or, when it is about several subjects, once the last of them is released.
 * Answers the notification, or null when the subject had none.
 */
export async function resolveBySubject(
  kv: Deno.Kv,
  userId: number,
  type: NotificationType,
  subject: string,
): Promise<Notification | null> {
  const open = await kv.get<number>(openKey(userId, type, subject));
  if (open.value === null) return null;
  const id = open.value;
  await kv.atomic().check(open).delete(open.key).delete(memberKey(userId, id, subject)).commit();
  for await (const _ of kv.list({ prefix: ["notifications_members", userId, id] }, { limit: 1 })) {
    return await getNotification(kv, userId, id);
  }
  return resolveNotification(kv, userId, id);
}

/** Deletes every notification of a user (when the account is deleted). */
export async function deleteNotificationsOf(kv: Deno.Kv, userId: number): Promise<void> {
  for (const family of ["notifications", "notifications_open", "notifications_members"]) {
    for await (const e of kv.list({ prefix: [family, userId] })) await kv.delete(e.key);
  }
  await kv.atomic().sum(revisionKey(userId), ONE.value).commit();
}
