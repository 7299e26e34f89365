/**
 * Leases kept in KV: which process holds a named singleton job, until when, and its fencing
 * token (issue 33).
 *
 * Keys:
 * - `["leases", name]` → {@link StoredLease}: the holder, its token, when the lease ends.
 * - `["lease_fence", name]` → the current token (a number that only grows), written only when
 *   the lease changes hands, so its versionstamp stays the same while one holder renews.
 *
 * A lease is taken when absent, ended, or already ours (a renewal), with one atomic commit
 * checked against both keys: two processes never hold it at once. A new holder's token is the
 * previous token plus one. A job's write that must not come from a holder that lost the lease
 * adds {@link fenceCheck}'s check to its commit: once another process took the lease over, the
 * old holder's commit fails.
 */

/** What is stored for a held lease. */
export interface StoredLease {
  holder: string;
  token: number;
  /** When the lease ends unless renewed (epoch ms). */
  expires_at: number;
}

const leaseKey = (name: string) => ["leases", name];
const fenceKey = (name: string) => ["lease_fence", name];

/**
 * Takes or renews the lease `name` for `holder` until `now + ttlMs`; answers the held lease,
 * or null while another holder's lease runs (or when a concurrent commit won).
 */
export async function acquireLease(
  kv: Deno.Kv,
  name: string,
  holder: string,
  now: number,
  ttlMs: number,
): Promise<StoredLease | null> {
  const [lease, fence] = await kv.getMany<[StoredLease, number]>([
    leaseKey(name),
    fenceKey(name),
  ]);
  const cur = lease.value;
  if (cur && cur.holder !== holder && cur.expires_at > now) return null;
  const renewal = cur !== null && cur.holder === holder && cur.token === fence.value;
  const token = renewal ? cur.token : (fence.value ?? 0) + 1;
  const next: StoredLease = { holder, token, expires_at: now + ttlMs };
  const op = kv.atomic().check(lease).check(fence).set(leaseKey(name), next);
  if (!renewal) op.set(fenceKey(name), token);
  return (await op.commit()).ok ? next : null;
}

/** Gives the lease up (a clean stop), when `holder` still holds it with `token`. */
export async function releaseLease(
  kv: Deno.Kv,
  name: string,
  holder: string,
  token: number,
): Promise<boolean> {
  const lease = await kv.get<StoredLease>(leaseKey(name));
  if (lease.value?.holder !== holder || lease.value.token !== token) return false;
  return (await kv.atomic().check(lease).delete(leaseKey(name)).commit()).ok;
}

/**
 * The check a fenced write adds to its commit: it holds while `token` is the lease's current
 * token. Null when it is no longer (the lease changed hands): the write must not happen.
 */
export async function fenceCheck(
  kv: Deno.Kv,
  name: string,
  token: number,
): Promise<Deno.AtomicCheck | null> {
  const fence = await kv.get<number>(fenceKey(name));
  return fence.value === token ? { key: fence.key, versionstamp: fence.versionstamp } : null;
}

/** The lease as stored now (null when none is held or it was given up). */
export async function readLease(kv: Deno.Kv, name: string): Promise<StoredLease | null> {
  return (await kv.get<StoredLease>(leaseKey(name))).value;
}

/** How {@link claimRun} treats this call. */
export interface ClaimOptions {
  /** A start-up run: the job runs now even when not due (the schedule moves only when due). */
  atStart?: boolean;
  /** Without a schedule yet, the first run is one interval from now, not now. */
  firstAfterInterval?: boolean;
}

/**
 * Claims the run of a singleton job due at or before `now`: moves `["singleton_due", name]` to
 * `now + everyMs` in a commit fenced by `token`. Answers true when this holder may run the job
 * now; false when it is not due yet, or the lease changed hands (a stale holder).
 */
export async function claimRun(
  kv: Deno.Kv,
  name: string,
  token: number,
  now: number,
  everyMs: number,
  o: ClaimOptions = {},
): Promise<boolean> {
  const key = ["singleton_due", name];
  const [due, check] = await Promise.all([kv.get<number>(key), fenceCheck(kv, name, token)]);
  if (!check) return false;
  if (due.value === null && o.firstAfterInterval) {
    await kv.atomic().check(check).check(due).set(key, now + everyMs).commit();
    return false;
  }
  const isDue = due.value === null || due.value <= now;
  if (!isDue && !o.atStart) return false;
  const op = kv.atomic().check(check).check(due);
  if (isDue) op.set(key, now + everyMs);
  return (await op.commit()).ok;
}

/** When the job `name` is next due (null before its first run). */
export async function nextRunAt(kv: Deno.Kv, name: string): Promise<number | null> {
  return (await kv.get<number>(["singleton_due", name])).value;
}
