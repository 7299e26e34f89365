/**
 * Password reset tokens and the throttle of reset requests (issue 28).
 *
 * Key layout:
 * - `["password_resets", sha256(token)]` → {@link StoredReset}, expiring with the token: only
 *   the hash of a token is stored, and using it deletes it (single use)
 * - `["reset_requests", "email", email]`, `["reset_requests", "ip", address]` →
 *   {@link RequestCount}, expiring after the window
 */
import type { OutboxEvent } from "../core/messages.ts";
import { stageOutboxEvent } from "./outbox.ts";

/** A reset that may still be used. */
export interface StoredReset {
  user_id: number;
  expires_at: number;
}

/** Requests counted in a window. */
interface RequestCount {
  count: number;
  first_at: number;
}

const resetKey = (hash: string) => ["password_resets", hash];

/** Stores a reset and the event of its mail in one commit. */
export async function createReset(
  kv: Deno.Kv,
  hash: string,
  reset: StoredReset,
  event: OutboxEvent,
  now: number,
): Promise<void> {
  const op = kv.atomic().set(resetKey(hash), reset, {
    expireIn: Math.max(1, reset.expires_at - now),
  });
  stageOutboxEvent(op, event);
  await op.commit();
}

/**
 * Uses a reset: answers it and deletes it in one commit when it exists and has not expired at
 * `now`; null otherwise (unknown, expired, or used meanwhile).
 */
export async function consumeReset(
  kv: Deno.Kv,
  hash: string,
  now: number,
): Promise<StoredReset | null> {
  const cur = await kv.get<StoredReset>(resetKey(hash));
  if (!cur.value || cur.value.expires_at <= now) return null;
  const res = await kv.atomic().check(cur).delete(resetKey(hash)).commit();
  return res.ok ? cur.value : null;
}

/** Whether a reset exists and is still valid at `now` (the reset page's check). */
export async function resetValid(kv: Deno.Kv, hash: string, now: number): Promise<boolean> {
  const cur = await kv.get<StoredReset>(resetKey(hash));
  return cur.value !== null && cur.value.expires_at > now;
}

/** How many reset requests a window allows. */
export interface ResetLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

/**
 * Counts a request for `email` from `address`: ok while both are under their limits in the
 * window, else how long until the older of them frees.
 */
export async function reserveResetRequest(
  kv: Deno.Kv,
  email: string,
  address: string,
  now: number,
  limits: ResetLimits,
): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
  const keys = [["reset_requests", "email", email], ["reset_requests", "ip", address]];
  const max = [limits.perEmail, limits.perAddress];
  for (;;) {
    const cur = await kv.getMany<RequestCount[]>(keys);
    const counts = cur.map((e) =>
      e.value && now - e.value.first_at < limits.windowMs ? e.value : { count: 0, first_at: now }
    );
    const full = counts.findIndex((c, i) => c.count >= max[i]);
    if (full >= 0) {
      return { ok: false, retryAfterMs: counts[full].first_at + limits.windowMs - now };
    }
    const op = kv.atomic();
    counts.forEach((c, i) => {
      op.check(cur[i]).set(keys[i], { count: c.count + 1, first_at: c.first_at }, {
        expireIn: limits.windowMs,
      });
    });
    if ((await op.commit()).ok) return { ok: true };
  }
}
